/**
 * For end-to-end tests of engine behaviour, which any destination shows the same way: one
 * DuckDB target per test file and a fresh sandbox + destination per test, closed after it.
 * Call at a test file's top level.
 */
import { afterAll, afterEach } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.ts';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { openWorld, SANDBOX } from './sync-suite.ts';

export type World = Awaited<ReturnType<typeof openWorld>>;

export function useDuckdbWorlds(): (sandbox?: SandboxOptions) => Promise<World> {
  const target = duckdbTarget();
  let world: World | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });
  afterAll(() => target.close());
  return async (sandbox = SANDBOX) => (world = await openWorld(target, sandbox));
}
