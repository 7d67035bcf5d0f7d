/**
 * What a run is for, with the inputs only that kind of run has (docs/architecture.md#data-flow):
 * the front ends share one frame (`run-frame.ts`) and differ in their sink and their mode. The
 * frame asks the mode where scans start, whether `--websites` must be listed, and how many
 * removals the listing may infer; the sinks ask whether the listing is written and removals
 * marked.
 */
import type { RunCommand } from '../destination/engine-tables.ts';
import type { StreamName } from '../streams/index.ts';

/** `aivis sync`: keeps the websites table in step with the listing and reads on from saved state. */
export interface SyncMode {
  readonly kind: 'sync';
  /** Only these websites (intersected with the config's `websites.include`); an unlisted one is a failed website (exit 3). */
  readonly websites?: readonly string[];
  /** Ignore saved state: read every feed from the beginning (rows are upserted, so no duplicates). */
  readonly fullRefresh: boolean;
  /** Accept a listing that removes more than half of the known websites. */
  readonly allowMassRemoval: boolean;
}

/** `aivis backfill`: re-reads feeds from `since`, saves no state, leaves the listing alone. */
export interface BackfillMode {
  readonly kind: 'backfill';
  readonly since: string;
  /** Only these websites; an id the listing lacks is a usage error (exit 2). */
  readonly websites?: readonly string[];
}

/** `aivis verify`: re-reads a window of one feed from `since` and compares it; `repair` writes what is missing. */
export interface VerifyMode {
  readonly kind: 'verify';
  readonly since: string;
  readonly until?: string;
  /** Only these websites; an id the listing lacks is a usage error (exit 2). */
  readonly websites?: readonly string[];
  readonly repair: boolean;
}

/** `aivis airbyte read`, `tap-aivis`: the streams read incrementally resume from the protocol state, the others from the start. */
export interface ProtocolMode {
  readonly kind: 'protocol';
  readonly resumed: ReadonlySet<StreamName>;
  /** The JSON config's `allow_mass_removal`. */
  readonly allowMassRemoval: boolean;
}

export type RunMode = SyncMode | BackfillMode | VerifyMode | ProtocolMode;

/** The modes that leave a run row (`_aivis_runs.command`). */
export type RunRowMode = SyncMode | BackfillMode;

export const SYNC_MODE: SyncMode = { kind: 'sync', fullRefresh: false, allowMassRemoval: false };

/** The run's name in `_aivis_runs.command`, the logs and the metrics. */
export function runCommand(mode: RunRowMode): RunCommand {
  return mode.kind;
}

/** The websites the command names (`--websites`), if any. */
export function namedWebsites(mode: RunMode): readonly string[] | undefined {
  return mode.kind === 'protocol' ? undefined : mode.websites;
}

/** A command that re-reads what it names (backfill, verify): an id the listing lacks is a typo, a usage error. */
export function refusesUnlisted(mode: RunMode): boolean {
  return mode.kind === 'backfill' || mode.kind === 'verify';
}

/** Whether the listing's rows are written and removals marked: `sync` keeps the websites table in step, the others leave it alone. */
export function keepsListing(mode: RunMode): boolean {
  return mode.kind === 'sync';
}

/** The `updated_since` every feed scan starts at, handing on no state (backfill, verify); none: from each scan's position. */
export function readSince(mode: RunMode): string | undefined {
  return mode.kind === 'backfill' || mode.kind === 'verify' ? mode.since : undefined;
}

export function allowsMassRemoval(mode: RunMode): boolean {
  return mode.kind === 'sync' || mode.kind === 'protocol' ? mode.allowMassRemoval : false;
}
