/**
 * Where the engine's flushes go in a protocol mode (docs/protocols.md#how-it-works): the sync
 * engine runs as it does for `aivis sync` (listing, reconciliation and the mass-removal guard,
 * scans, retries, rate budget, breach refusals, the flush buffer), and this sink stands where
 * a destination and its state store would. Each flush becomes the records of its selected
 * tables, then the state of the streams it moved: state is written after the records it
 * covers, at the flush cadence, never per page. Engine bookkeeping (run rows, completeness,
 * metric versions) has no place in a protocol's output and is dropped; rejected records are
 * logged on stderr with their reason.
 */
import type {
  ActiveWebsite,
  Destination,
  DestinationLock,
  FlushResult,
  TableRows,
} from '../destination/destination.ts';
import type { Row } from '../destination/table-spec.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { Logger } from '../log/logger.ts';
import type { Flush, StateEntry } from '../state/state-entry.ts';
import type { StateStore } from '../state/state-store.ts';
import { rejectedTable, websitesTable } from '../tables/index.ts';
import type { ProtocolState } from './protocol-state.ts';
import type { ProtocolStream } from './protocol-streams.ts';

/** What a protocol writes: its own message shapes for the same events. */
export interface ProtocolWriter {
  /** A flush's rows of one selected stream. */
  records(stream: ProtocolStream, rows: readonly Row[]): Promise<void>;
  /** After the records they cover: the state of the streams (engine stream names) a flush moved. */
  states(sources: readonly string[], state: ProtocolState): Promise<void>;
}

/**
 * Flush bounds: a few pages per STATE, so a killed read loses little and the platform
 * checkpoints often, without a state line per page.
 */
const MAX_ROWS_PER_FLUSH = 5_000;
const MAX_SECONDS_PER_FLUSH = 10;

export interface ProtocolSinkOptions {
  readonly writer: ProtocolWriter;
  readonly state: ProtocolState;
  /** The selected streams by table name. */
  readonly selected: ReadonlyMap<string, ProtocolStream>;
  /** Engine streams whose saved state this read resumes from (incremental); the rest start over. */
  readonly resumed: ReadonlySet<string>;
  readonly runId: string;
  readonly logger: Logger;
}

/** The engine's state store and destination, as one sink writing protocol messages. */
export class ProtocolSink implements StateStore {
  readonly #options: ProtocolSinkOptions;
  readonly destination: Destination;

  constructor(options: ProtocolSinkOptions) {
    this.#options = options;
    this.destination = protocolDestination(this);
  }

  async load(): Promise<StateEntry[]> {
    const updatedAt = new Date(0).toISOString();
    return this.#options.state.feedStates(this.#options.resumed).map((entry) => ({ ...entry, updatedAt }));
  }

  async commit(_destination: Destination, flush: Flush): Promise<FlushResult> {
    const { writer, state, selected } = this.#options;
    const rowsWritten: Record<string, number> = {};
    const moved = new Set<string>();
    for (const { table, rows } of flush.tables) {
      if (table === rejectedTable) this.#logRejected(rows);
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

  async delete(): Promise<number> {
    return 0;
  }

  /** Websites no longer listed (or revoked during the read): emitted again with `_removed_at`, and forgotten. */
  async removeWebsites(ids: readonly string[], removedAt: string): Promise<void> {
    const { writer, state, selected, runId } = this.#options;
    const stream = selected.get(websitesTable.name);
    const rows = ids.map((id) => {
      const row: Record<string, Row[string]> = Object.fromEntries(websitesTable.columns.map((c) => [c.name, null]));
      return {
        ...row,
        id,
        _first_seen_at: state.knownWebsites.get(id) ?? removedAt,
        _removed_at: removedAt,
        _synced_at: removedAt,
        _run_id: runId,
        _workspace: DEFAULT_WORKSPACE,
      };
    });
    for (const id of ids) state.removed(id);
    if (!stream) return;
    await writer.records(stream, rows);
    await writer.states([stream.source], state);
  }

  /** The known websites, as the engine reconciles a listing with them. */
  activeWebsites(): ActiveWebsite[] {
    return [...this.#options.state.knownWebsites.keys()].map((id) => ({ id, workspace: DEFAULT_WORKSPACE }));
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

/**
 * The destination side of the sink: what the engine asks a destination for, answered with no
 * database. Tables, views and run rows have nowhere to go; the known websites are the state's.
 */
function protocolDestination(sink: ProtocolSink): Destination {
  const none = async () => {};
  const lock: DestinationLock = { release: none };
  return {
    type: 'protocol',
    capabilities: {
      transactional: false,
      maxRowsPerFlush: MAX_ROWS_PER_FLUSH,
      maxSecondsPerFlush: MAX_SECONDS_PER_FLUSH,
    },
    namespace: { database: '', schema: '' },
    open: none,
    close: none,
    check: none,
    ensureTables: none,
    ensureViews: none,
    describeDdl: () => [],
    describeViewDdl: () => [],
    // Only engine bookkeeping comes here directly (run rows); data comes through the sink's `commit`.
    commit: async (_parts: readonly TableRows[]) => ({ rowsWritten: {} }),
    readState: async () => [],
    deleteState: async () => 0,
    listActiveWebsites: async () => sink.activeWebsites(),
    windowIds: async () => [],
    markWebsitesRemoved: (ids, removedAt) => sink.removeWebsites(ids, removedAt),
    markAbandonedRuns: none,
    readRows: async () => [],
    countRejected: async () => 0,
    acquireLock: async () => lock,
  };
}
