/**
 * Pass two of a table or query source sends only the rows pass one checked. The source is read
 * twice (input-check.ts, then partitions.ts), and between the reads a table may change (a dbt
 * model rebuilt, rows inserted) and a query may answer differently (`random()`, the time).
 * Pass one keeps a fingerprint of each chunk of 1,000 rows (32 bytes: 32 KB for a million
 * rows); pass two holds a chunk's rows back until its fingerprint matches, so no partition is
 * cut from a row that was not checked, and the run stops at the first chunk that differs.
 */
import { createHash } from 'node:crypto';
import { AivisError } from '../errors.ts';
import type { InputRecord } from './input-record.ts';

const CHUNK_ROWS = 1000;

/** A record as fingerprinted: its position, and what was read there. */
function recordText(record: InputRecord): string {
  return `${JSON.stringify([record.line, record.item ?? null, record.problem ?? null])}\n`;
}

/** The fingerprints of pass one's rows, chunk by chunk. */
export class CheckedRows {
  readonly #chunks: Buffer[] = [];
  #hash = createHash('sha256');
  #rows = 0;

  add(record: InputRecord): void {
    this.#hash.update(recordText(record));
    if (++this.#rows % CHUNK_ROWS === 0) this.#seal();
  }

  /** Ends pass one: the last, partial chunk gets its fingerprint too. */
  finish(): void {
    if (this.#rows % CHUNK_ROWS !== 0) this.#seal();
  }

  #seal(): void {
    this.#chunks.push(this.#hash.digest());
    this.#hash = createHash('sha256');
  }

  /**
   * `records` (pass two) as they were checked, a chunk at a time; throws naming `source` and
   * the first row of the first chunk that differs, before any of its rows is handed on.
   */
  async *unchanged(records: AsyncIterable<InputRecord>, source: string): AsyncGenerator<InputRecord> {
    let held: InputRecord[] = [];
    let hash = createHash('sha256');
    let chunk = 0;
    const release = (): InputRecord[] => {
      const expected = this.#chunks[chunk];
      if (!expected?.equals(hash.digest())) throw changed(source, chunk);
      chunk++;
      hash = createHash('sha256');
      const out = held;
      held = [];
      return out;
    };
    for await (const record of records) {
      held.push(record);
      hash.update(recordText(record));
      if (held.length === CHUNK_ROWS) yield* release();
    }
    if (held.length) yield* release();
    // Fewer rows than were checked: the missing ones were not sent either.
    if (chunk !== this.#chunks.length) throw changed(source, chunk);
  }
}

function changed(source: string, chunk: number): AivisError {
  return new AivisError(
    `${source}: the rows changed while aivis read them (from row ${chunk * CHUNK_ROWS + 1} on, they are not the rows it checked); no row from there on was sent: run the same command again, on rows that hold still while it runs`,
  );
}
