/**
 * The run's one read decision (docs/architecture.md#data-flow, "plan"): after the listing is
 * reconciled and before the pool starts, which of the selected streams each planned website
 * reads. Today every planned website the sink wants reads every selected stream; a decision per
 * website and stream (change-driven reads) belongs here and nowhere else.
 */
import type { WebsiteRead } from '../feed/feed-reader.ts';
import type { PlannedWebsite } from '../feed/list-websites.ts';
import type { StreamName } from '../streams/index.ts';

export function planReads(
  planned: readonly PlannedWebsite[],
  streams: readonly StreamName[],
  wanted: (websiteId: string) => boolean = () => true,
): WebsiteRead[] {
  return planned.filter((website) => wanted(website.id)).map((website) => ({ website, streams }));
}
