/**
 * Where a protocol read's flushes go (docs/protocols.md#how-it-works): the feed reader's pages
 * are collected by the engine's flush buffer, and each flush becomes the records of its
 * selected tables, then the state of the streams it moved: state is written after the records
 * it covers, at the flush cadence, never per page. Rows of tables the catalog did not select
 * and engine bookkeeping (completeness) have no place in a protocol's output; rejected records
 * are logged on stderr with their reason, as `_aivis_rejected` would hold them. Coverage rows
 * (change-driven reads) go into their stream's state: the flush buffer carries them behind the
 * website's rows, so the state that holds them follows the records they vouch for.
 */
import type { FlushResult } from '../destination/destination.ts';
import type { Row } from '../destination/table-spec.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { Logger } from '../log/logger.ts';
import type { Flush } from '../state/state-entry.ts';
import { storedCoverage } from '../plan/coverage.ts';
import { coverageTable, rejectedTable, websitesTable } from '../tables/index.ts';
import type { ProtocolState } from './protocol-state.ts';
import type { ProtocolStream } from './protocol-streams.ts';

/** What a protocol writes: its own message shapes for the same events. */
export interface ProtocolWriter {
  /**
   * Once the served contract is read, before any record: the columns schema evolution gives
   * the streams (`streamColumns`), which every record of the read carries.
   */
  begin(evolution: RunEvolution): Promise<void>;
  /** A flush's rows of one selected stream. */
  records(stream: ProtocolStream, rows: readonly Row[]): Promise<void>;
  /** After the records they cover: the state of the streams (engine stream names) a flush moved. */
  states(sources: readonly string[], state: ProtocolState): Promise<void>;
}

/** A few pages per STATE: a killed read loses little and the platform checkpoints often, without a state line per page. */
export const PROTOCOL_FLUSH_BOUNDS = { maxRowsPerFlush: 5_000, maxSecondsPerFlush: 10 };

export interface ProtocolSinkOptions {
  readonly writer: ProtocolWriter;
  readonly state: ProtocolState;
  /** The selected streams by table name. */
  readonly selected: ReadonlyMap<string, ProtocolStream>;
  readonly runId: string;
  readonly logger: Logger;
}

export class ProtocolSink {
  readonly #options: ProtocolSinkOptions;

  constructor(options: ProtocolSinkOptions) {
    this.#options = options;
  }

  /** One flush: its selected rows, then the state of what it moved (the flush buffer's `commit`). */
  async commit(flush: Flush): Promise<FlushResult> {
    const { writer, state, selected } = this.#options;
    const rowsWritten: Record<string, number> = {};
    const moved = new Set<string>();
    for (const { table, rows } of flush.tables) {
      if (table === rejectedTable) this.#logRejected(rows);
      if (table === coverageTable)
        for (const row of rows) {
          state.setCoverage(storedCoverage(row, DEFAULT_WORKSPACE));
          moved.add(String(row.stream));
        }
      const stream = selected.get(table.name);
      if (!stream || rows.length === 0) continue;
      if (table === websitesTable) moved.add(stream.source);
      await writer.records(stream, table === websitesTable ? rows.map((row) => this.#listed(row)) : rows);
      rowsWritten[table.name] = (rowsWritten[table.name] ?? 0) + rows.length;
    }
    for (const entry of flush.state) {
      state.setFeedState(entry.stream, entry.scope, entry.state);
      moved.add(entry.stream);
    }
    if (moved.size > 0) await writer.states([...moved], state);
    return { rowsWritten };
  }

  /**
   * Websites no longer listed (or revoked during the read): emitted again with `_removed_at`
   * (the platform's dedup keeps the latest record of an id), and forgotten by the state.
   */
  async removeWebsites(ids: readonly string[], removedAt: string): Promise<void> {
    if (ids.length === 0) return;
    const { writer, state, selected, runId } = this.#options;
    const stream = selected.get(websitesTable.name);
    const blank: Record<string, Row[string]> = Object.fromEntries(websitesTable.columns.map((c) => [c.name, null]));
    const rows = ids.map((id) => ({
      ...blank,
      id,
      _first_seen_at: state.knownWebsites.get(id) ?? removedAt,
      _removed_at: removedAt,
      _synced_at: removedAt,
      _run_id: runId,
      _workspace: DEFAULT_WORKSPACE,
    }));
    for (const id of ids) state.removed(id);
    if (!stream) return;
    await writer.records(stream, rows);
    await writer.states([stream.source], state);
  }

  /** A listed website's row, its first sighting as the state remembers it. */
  #listed(row: Row): Row {
    const id = String(row.id);
    return { ...row, _first_seen_at: this.#options.state.listed(id, String(row._first_seen_at)) };
  }

  #logRejected(rows: readonly Row[]): void {
    for (const row of rows)
      this.#options.logger.warn('record rejected: it is not emitted', {
        stream: row.stream,
        scope: row.scope,
        error: row.error,
      });
  }
}
