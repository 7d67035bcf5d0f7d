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
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
