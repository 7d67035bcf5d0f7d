/**
 * A separate process that opens a destination, takes its run lock and holds it until killed,
 * so tests can see another process as the holder and what a SIGKILL leaves behind.
 *
 *   node --import ./test/setup/loopback-guard.ts test/locks/hold-lock.ts postgres <url> <schema>
 *   node --import ./test/setup/loopback-guard.ts test/locks/hold-lock.ts duckdb <path> <schema>
 *
 * Prints `locked <pid>` once the lock is held.
 */
import os from 'node:os';
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import { createPostgresDestination } from '../../connectors/postgres/index.ts';
import { silentLogger } from '../../src/log/logger.ts';

const [type, location = '', schema = 'aivis'] = process.argv.slice(2);
const deps = { logger: silentLogger };
const destination =
  type === 'postgres'
    ? createPostgresDestination({ type: 'postgres', url: location, schema }, deps)
    : createDuckdbDestination({ type: 'duckdb', path: location, schema }, deps);
await destination.open();
await destination.acquireLock({
  runId: 'held-by-child',
  host: os.hostname(),
  pid: process.pid,
  startedAt: '2026-03-01T00:00:00.000Z',
  workspace: 'default',
});
process.stdout.write(`locked ${process.pid}\n`);
// Hold until killed.
setInterval(() => {}, 1 << 30);
