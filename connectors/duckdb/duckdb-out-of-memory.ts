/**
 * DuckDB's "Out of Memory Error" in a flush, said in aivis's terms: which key raises the bound.
 * DuckDB's own advice (`SET memory_limit=...`) names a statement the user cannot run inside aivis.
 * Values of 256 KB or more are where a flush meets it: DuckDB keeps such strings of the row
 * group it appends to in memory (docs/destinations/duckdb.md#memory).
 */
import { DestinationError } from '../../src/errors.ts';
import { redact } from '../../src/log/redact.ts';
import type { DuckdbLimits } from './duckdb-session-limits.ts';

const OUT_OF_MEMORY = /Out of Memory Error: ([^\n]*)/;

export async function withMemoryHint<T>(limits: DuckdbLimits, step: () => string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const reason = OUT_OF_MEMORY.exec((error as Error).message ?? '')?.[1];
    if (reason === undefined) throw error;
    throw new DestinationError(
      redact(
        `DuckDB ran out of its memory_limit (${limits.memoryLimit}) in ${step()} (${reason}): ` +
          'set destination.memory_limit higher (e.g. 1GB) and run again; what earlier flushes committed is kept, and the run resumes from it',
      ),
    );
  }
}
