/**
 * The run's one read decision (docs/architecture.md#data-flow, "plan"): after the listing is
 * reconciled and before the pool starts, which of the selected streams each planned website
 * reads: every selected stream, unless the sink's decision (change-driven reads, `src/plan/`) says
 * which streams a website reads or that it is skipped as unchanged.
 */
import type { WebsiteRead } from '../feed/feed-reader.ts';
import type { PlannedWebsite } from '../feed/list-websites.ts';
import type { StreamName } from '../streams/index.ts';

export function planReads(
  planned: readonly PlannedWebsite[],
  streams: readonly StreamName[],
  wanted: (websiteId: string) => boolean = () => true,
  streamsOf: (websiteId: string) => readonly StreamName[] | undefined = () => streams,
): WebsiteRead[] {
  const reads: WebsiteRead[] = [];
  for (const website of planned) {
    const read = wanted(website.id) ? streamsOf(website.id) : undefined;
    if (read !== undefined) reads.push({ website, streams: read });
  }
  return reads;
}
