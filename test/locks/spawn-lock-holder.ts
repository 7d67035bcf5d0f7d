/** Starts `hold-lock.ts` in a child process and resolves once it holds the lock. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { childEnv } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface LockHolder {
  readonly child: ChildProcess;
  readonly pid: number;
  /** SIGKILL, then wait for the exit: what a crashed run looks like. */
  kill(): Promise<void>;
}

export async function spawnLockHolder(
  type: 'postgres' | 'duckdb',
  location: string,
  schema: string,
): Promise<LockHolder> {
  const child = spawn(
    process.execPath,
    ['--import', './test/setup/loopback-guard.ts', 'test/locks/hold-lock.ts', type, location, schema],
    {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  const ready = new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /locked (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    void exited.then(() => reject(new Error(`lock holder exited before locking: ${stderr}`)));
  });
  const pid = await ready;
  return {
    child,
    pid,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
