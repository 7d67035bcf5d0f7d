/**
 * The destination the sync engine's tests run on: the real DuckDB engine in memory (no file,
 * nothing to clean up), with faults injected by `withFaults`. Being a real connector, it answers
 * the bookkeeping queries with the SQL every connector runs; no query has a JavaScript twin.
 */
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { type Faults, type FaultyDestination, withFaults } from './faulty-destination.ts';

export interface FakeDestinationOptions {
  schema?: string;
  faults?: Faults;
  /** Overrides DuckDB's (a flush bound, or `transactional: false`). */
  capabilities?: Partial<DestinationCapabilities>;
}

/** A fresh in-memory destination, opened. Each call has its own database. */
export async function openFakeDestination(options: FakeDestinationOptions = {}): Promise<FaultyDestination> {
  const duckdb = createDuckdbDestination(
    { type: 'duckdb', path: ':memory:', schema: options.schema ?? 'aivis' },
    { logger: silentLogger },
  );
  await duckdb.open();
  return withFaults(duckdb, options.faults, options.capabilities);
}
