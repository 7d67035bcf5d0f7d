/**
 * Collects durable units (a page's rows plus the state that describes them) until the
 * destination's bounds are reached, then commits them as one flush. A unit is never split
 * across flushes, so saved state always describes rows committed with it or before it
 * (Airbyte CDK: checkpoint only when a partition is durable). A long page comes in several
 * units, only its last carrying state (scan-feed.ts).
 *
 * Units arrive from several website workers at once; adds and flushes run one at a time.
 * A failed commit poisons the buffer: every later add fails with the same error, because
 * committing a later page's state over an earlier page's lost rows would skip those rows.
 *
 * Besides the destination's row and time bounds, a flush is bounded in bytes: rows vary
 * (a mention with a long sentence and its `_raw` is several KB), and a bound in rows alone
 * would let a warehouse's large flushes outgrow a container's heap.
 */
import type { DestinationCapabilities, FlushResult, TableRows } from '../destination/destination.ts';
import type { Flush, StateEntry } from '../state/state-entry.ts';
import type { Row, TableSpec } from '../destination/table-spec.ts';
import { stateKey } from '../state/state-store.ts';
import { type DurableUnit, type FeedSink, MAX_FLUSH_TEXT, rowText } from '../feed/durable-unit.ts';

export interface FlushBufferOptions {
  /** When to flush: the destination's bounds, or a protocol mode's cadence of STATE messages. */
  readonly bounds: Pick<DestinationCapabilities, 'maxRowsPerFlush' | 'maxSecondsPerFlush'>;
  /** Makes one flush durable: its rows, then (or atomically with them) its state (`StateStore.commit`). */
  readonly commit: (flush: Flush) => Promise<FlushResult>;
  /** Wall clock in milliseconds (injected so tests control time). */
  readonly now: () => number;
  readonly onFlush?: (result: FlushResult, rows: number) => void;
  /**
   * Rows derived from a flush's rows, committed in the same flush (after them), so they are
   * durable exactly when the rows they describe are: the `metric_versions` ledger.
   */
  readonly derivedRows?: (tables: readonly TableRows[]) => TableRows[];
  /** A table as this run writes it: with the columns schema evolution added (docs/served-contract.md#schema-evolution). */
  readonly tableOf?: (table: TableSpec) => TableSpec;
}

export class FlushBuffer implements FeedSink {
  readonly #options: FlushBufferOptions;
  readonly #maxRows: number;
  readonly #maxMillis: number;
  #rows = new Map<string, { table: TableSpec; rows: Row[] }>();
  #state = new Map<string, StateEntry>();
  #rowCount = 0;
  #text = 0;
  #oldest: number | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #failure: unknown;

  constructor(options: FlushBufferOptions) {
    this.#options = options;
    this.#maxRows = options.bounds.maxRowsPerFlush;
    this.#maxMillis = options.bounds.maxSecondsPerFlush * 1000;
  }

  /** Adds a unit; resolves once it is buffered, or committed if it filled the buffer. */
  add(unit: DurableUnit): Promise<void> {
    return this.#serial(async () => {
      if (this.#failure !== undefined) throw this.#failure;
      this.#oldest ??= this.#options.now();
      for (const { table, rows } of unit.tables) {
        if (rows.length === 0) continue;
        let bucket = this.#rows.get(table.name);
        if (!bucket)
          this.#rows.set(table.name, (bucket = { table: this.#options.tableOf?.(table) ?? table, rows: [] }));
        for (const row of rows) {
          bucket.rows.push(row);
          this.#text += rowText(row);
        }
        this.#rowCount += rows.length;
      }
      if (unit.state) this.#state.set(stateKey(unit.state.stream, unit.state.scope), unit.state);
      const full = this.#rowCount >= this.#maxRows || this.#text >= MAX_FLUSH_TEXT;
      if (full || this.#options.now() - this.#oldest >= this.#maxMillis) await this.#commit();
    });
  }

  /** Commits whatever is buffered. */
  flush(): Promise<void> {
    return this.#serial(async () => {
      if (this.#failure !== undefined) throw this.#failure;
      await this.#commit();
    });
  }

  async #commit(): Promise<void> {
    if (this.#rowCount === 0 && this.#state.size === 0) return;
    const tables = [...this.#rows.values()];
    const state = [...this.#state.values()];
    const rows = this.#rowCount;
    this.#rows = new Map();
    this.#state = new Map();
    this.#rowCount = 0;
    this.#text = 0;
    this.#oldest = undefined;
    const { commit, derivedRows } = this.#options;
    let result: FlushResult;
    try {
      const derived = derivedRows?.(tables) ?? [];
      result = await commit({ tables: [...tables, ...derived], state });
    } catch (error) {
      this.#failure = error;
      throw error;
    }
    this.#options.onFlush?.(result, rows);
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(task);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
