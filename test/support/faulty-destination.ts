/**
 * Fault injection over any destination: fail the Nth commit before it applies or after it
 * applied, or fail on a given table; counts commits. Wraps a real connector (the fake is
 * DuckDB in memory, fake-destination.ts), so what the engine does on a failed commit is tested
 * against the same SQL the connectors run.
 */
import type { Destination, DestinationCapabilities, FlushResult } from '../../src/destination/destination.ts';
import { DestinationError } from '../../src/errors.ts';

/** Faults to inject; change them between calls. Commit numbers count every `commit` call from 1. */
export interface Faults {
  /** Throw on this commit, before anything is applied (the commit never happened). */
  failCommitBefore?: number;
  /** Apply this commit fully, then throw (the run dies before it learns the commit landed). */
  failCommitAfter?: number;
  /**
   * Throw when the commit reaches rows of this table: a transactional destination keeps
   * nothing of the commit, a non-transactional one the tables before it.
   */
  failOnTable?: string;
}

export interface FaultyDestination extends Destination {
  readonly faults: Faults;
  /** `commit` calls so far, failed ones included. */
  readonly commitCalls: number;
  /** Commits that applied their rows and state. */
  readonly commitsApplied: number;
}

/**
 * `destination` with `faults` injected into its commits. `capabilities` overrides the
 * destination's (a flush bound, or `transactional: false` to commit a flush's tables one by one
 * as a non-transactional destination does).
 */
export function withFaults(
  destination: Destination,
  faults: Faults = {},
  capabilities: Partial<DestinationCapabilities> = {},
): FaultyDestination {
  const ownCapabilities: DestinationCapabilities = { ...destination.capabilities, ...capabilities };
  let commitCalls = 0;
  let commitsApplied = 0;

  const commitParts = async (parts: Parameters<Destination['commit']>[0]): Promise<FlushResult> => {
    if (ownCapabilities.transactional) return destination.commit(parts);
    const rowsWritten: Record<string, number> = {};
    for (const part of parts) Object.assign(rowsWritten, (await destination.commit([part])).rowsWritten);
    return { rowsWritten };
  };

  return {
    ...destination,
    capabilities: ownCapabilities,
    faults,
    get commitCalls() {
      return commitCalls;
    },
    get commitsApplied() {
      return commitsApplied;
    },
    async commit(parts) {
      commitCalls += 1;
      if (faults.failCommitBefore === commitCalls)
        throw new DestinationError(`injected: commit ${commitCalls} failed before applying`);
      const failing = parts.findIndex((part) => part.table.name === faults.failOnTable);
      if (failing >= 0) {
        if (!ownCapabilities.transactional) await commitParts(parts.slice(0, failing));
        throw new DestinationError(`injected: commit failed on table "${faults.failOnTable}"`);
      }
      const result = await commitParts(parts);
      commitsApplied += 1;
      if (faults.failCommitAfter === commitCalls)
        throw new DestinationError(`injected: commit ${commitCalls} applied, then failed`);
      return result;
    },
  };
}
