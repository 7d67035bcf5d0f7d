/**
 * The websites of every workspace, in the order they were added. A website's data is never
 * stored: its generator and analysis schedule derive from its id and `firstAsOfMs`.
 */
import { Rng } from '../prng.ts';
import { DAY, HOUR } from '../timestamps.ts';
import { DISABLED_WORKSPACE, OTHER_WORKSPACE, PRIMARY_WORKSPACE } from './api-keys.ts';

/** One tracked website and the two instants its whole history derives from. */
export interface WebsiteRecord {
  readonly id: string;
  readonly workspaceId: string;
  /** Position in the workspace's listing; cursors resume after it. */
  readonly seq: number;
  /** `as_of` of analysis 0; analysis k follows `k` days later. */
  readonly firstAsOfMs: number;
  removed: boolean;
}

export interface WebsiteRegistry {
  /** Listed websites of a workspace with `seq` greater than `afterSeq`, in listing order. */
  listed(workspaceId: string, afterSeq?: number): WebsiteRecord[];
  /** A listed website of that workspace, or undefined (missing, removed or foreign alike). */
  find(workspaceId: string, id: string): WebsiteRecord | undefined;
  /** Adds websites to a workspace at data time `nowMs`; they get their first analysis hours later. */
  add(workspaceId: string, count: number, nowMs: number): string[];
  /** Removes a website at once; unknown ids are an error so tests notice typos. */
  remove(id: string): void;
}

export interface InitialWebsites {
  seed: number;
  startMs: number;
  /** Websites in the primary workspace. */
  primary: number;
  /** Analyses each initially measured website already has at `startMs`. */
  analysesPerWebsite: number;
}

export function createWebsiteRegistry(init: InitialWebsites): WebsiteRegistry {
  const all: WebsiteRecord[] = [];
  let nextSeq = 1;
  const create = (workspaceId: string, firstAsOfMs: number): string => {
    const seq = nextSeq++;
    const id = `web_${Rng.of(init.seed, 'website-id', seq).token(8)}${seq.toString(36)}`;
    all.push({ id, workspaceId, seq, firstAsOfMs, removed: false });
    return id;
  };
  // Initial websites already have `analysesPerWebsite` analyses committed before start
  // (the latest one between 21 h and 3 h before it); every fifth one is tracked but not yet
  // measured, its first analysis a day and a half away.
  const seedWebsites = (workspaceId: string, count: number) => {
    for (let i = 0; i < count; i++) {
      const offset = Rng.of(init.seed, 'website-offset', workspaceId, i).int(0, 18) * HOUR;
      const measured = i % 5 !== 4 && init.analysesPerWebsite > 0;
      const first = measured
        ? init.startMs - init.analysesPerWebsite * DAY + offset
        : init.startMs + 36 * HOUR + offset;
      create(workspaceId, first);
    }
  };
  seedWebsites(PRIMARY_WORKSPACE, init.primary);
  seedWebsites(OTHER_WORKSPACE, 2);
  seedWebsites(DISABLED_WORKSPACE, 1);

  return {
    listed: (workspaceId, afterSeq = 0) =>
      all.filter((w) => w.workspaceId === workspaceId && !w.removed && w.seq > afterSeq),
    find: (workspaceId, id) => all.find((w) => w.id === id && w.workspaceId === workspaceId && !w.removed),
    add(workspaceId, count, nowMs) {
      if (!Number.isInteger(count) || count < 0)
        throw new RangeError(`addWebsites: count must be a whole number >= 0, got ${count}`);
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const offset = Rng.of(init.seed, 'added-offset', nextSeq).int(2, 8) * HOUR;
        ids.push(create(workspaceId, nowMs + offset));
      }
      return ids;
    },
    remove(id) {
      const website = all.find((w) => w.id === id && !w.removed);
      if (!website) throw new RangeError(`removeWebsite: no listed website ${id}`);
      website.removed = true;
    },
  };
}
