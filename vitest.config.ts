import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/loopback-guard.ts'],
    globalSetup: ['test/setup/postgres.ts', 'test/setup/pushgateway.ts'],
    // SDK probes off before any SDK can be loaded (see shared notes on the warehouse wire).
    env: {
      SNOWFLAKE_DISABLE_PLATFORM_DETECTION: 'true',
      SF_TELEMETRY_DISABLE_CONNECTION_SHAPE: '1',
      METADATA_SERVER_DETECTION: 'none',
      // Node's compile cache (keyed by each file's content, so never stale) for the workers and
      // every process a test spawns: a CLI run's start-up otherwise strips and compiles the
      // same TypeScript modules again each time.
      NODE_COMPILE_CACHE: path.join(import.meta.dirname, 'node_modules/.cache/node-compile-cache'),
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
