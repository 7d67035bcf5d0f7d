/** The analytics read of spec 4.3: the newest committed snapshot with the asked-for breakdowns. */
import { latestCommitted } from '../world/analysis-schedule.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';
import type { SnapshotRenderer } from './snapshot-parts.ts';

export type SnapshotInclude = 'providers' | 'competitors';

/** `{ data, meta }` without `meta.request_id`, or null before the first snapshot commits. */
export function latestSnapshot(
  render: SnapshotRenderer,
  website: WebsiteRecord,
  nowMs: number,
  includes: readonly SnapshotInclude[],
) {
  const analysis = latestCommitted(website, nowMs);
  if (!analysis) return null;
  const parts = render(website, analysis);
  const data: Record<string, unknown> = { ...parts.data };
  for (const include of includes) data[include] = parts[include];
  return { data, meta: { includes: [...includes], ...parts.meta } };
}
