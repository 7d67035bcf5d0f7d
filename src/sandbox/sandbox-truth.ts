/**
 * What a complete, correct client of the primary workspace must hold at the current data
 * time: every listed website, the latest snapshot, and every committed history point,
 * mention and citation, in feed order. Feeds are iterables that generate rows on demand.
 */
import type { Website } from '../../schemas/website.ts';
import { type SnapshotInclude, latestSnapshot } from './data/latest-snapshot.ts';
import type { FeedFamily } from './feed/feed-batch.ts';
import { feedRows } from './feed/feed-scan.ts';
import type { SandboxEnv } from './sandbox-env.ts';
import { PRIMARY_WORKSPACE } from './world/api-keys.ts';

/** See `Sandbox.truth`. */
export interface SandboxTruth {
  websites(): Website[];
  /** `{ data, meta }` as the analytics read returns it, without `meta.request_id`; null = 404. */
  snapshot(websiteId: string, include?: SnapshotInclude[]): { data: unknown; meta: unknown } | null;
  history(websiteId: string): Iterable<Record<string, unknown>>;
  mentions(websiteId: string): Iterable<Record<string, unknown>>;
  citations(websiteId: string): Iterable<Record<string, unknown>>;
}

export function createTruth(env: SandboxEnv): SandboxTruth {
  const find = (id: string) => env.websites.find(PRIMARY_WORKSPACE, id);
  const feed = (family: FeedFamily) =>
    function* (websiteId: string) {
      const website = find(websiteId);
      if (!website) return;
      const nowMs = env.clock.nowMs();
      const window = { nowMs, sinceMs: null, ceilingMs: nowMs, after: null, match: () => true };
      for (const { row } of feedRows(family.batches(website, nowMs), window)) yield env.timestamps.present(row);
    };
  return {
    websites: () =>
      env.websites
        .listed(PRIMARY_WORKSPACE)
        .map((w) => env.timestamps.present(env.website(w, env.clock.nowMs())) as Website),
    snapshot(websiteId, include = []) {
      const website = find(websiteId);
      return website ? env.timestamps.present(latestSnapshot(env.snapshot, website, env.clock.nowMs(), include)) : null;
    },
    history: feed(env.feeds.history),
    mentions: feed(env.feeds.mentions),
    citations: feed(env.feeds.citations),
  };
}
