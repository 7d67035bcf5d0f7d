/**
 * The engine's test harness for tests of a whole run (the sandbox over loopback, the real
 * client, `runSync`): the fake destination (the real DuckDB connector in memory, faults
 * injectable through `withFaults`), one fresh sandbox and destination per test, closed after
 * it. Engine behaviour shows the same way on every destination, so one proves it; call at a
 * test file's top level.
 */
import { afterEach } from 'vitest';
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import { readRows } from '../../src/destination/queries/read-rows.ts';
import { silentLogger } from '../../src/log/logger.ts';
import type { SandboxOptions } from '../../src/sandbox/index.ts';
import { normalizeRow } from '../conformance/normalize.ts';
import { openWorld, SANDBOX, type SyncTarget } from '../e2e/sync-suite.ts';
import { type FaultyDestination, withFaults } from './faulty-destination.ts';

export type EngineWorld = Awaited<ReturnType<typeof openWorld>> & { readonly destination: FaultyDestination };

/** The fake destination as a sync target: rows read back through the connector's own bookkeeping SQL. */
const FAKE_TARGET: SyncTarget = {
  name: 'fake destination',
  create: async (schema) =>
    withFaults(createDuckdbDestination({ type: 'duckdb', path: ':memory:', schema }, { logger: silentLogger })),
  readRows: async (destination, _schema, table) =>
    (await readRows(destination, table)).map((row) => normalizeRow(table, row)),
};

export function useEngineWorlds(): (sandbox?: SandboxOptions) => Promise<EngineWorld> {
  let world: EngineWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });
  return async (sandbox = SANDBOX) => (world = (await openWorld(FAKE_TARGET, sandbox)) as EngineWorld);
}
