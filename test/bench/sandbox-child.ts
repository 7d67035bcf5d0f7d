/**
 * A sandbox in a process of its own, so the process being measured (the `aivis sync` child
 * of the memory figure, the in-process sync of the throughput figure) holds none of the
 * sandbox's memory and spends none of its CPU generating rows.
 *
 * Run as `node sandbox-child.ts '<SandboxOptions as JSON>'`: prints one JSON line
 * `{ baseUrl, apiKey }` on stdout, serves until stdin closes or SIGTERM. `clockFactor` runs its
 * clock (data time, import processing, rate limiter) that many times faster than the wall's,
 * as `scaledClock` does for the client.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { scaledClock } from './scaled-clock.ts';

type ChildOptions = SandboxOptions & { readonly clockFactor?: number };

/** A sandbox running in a child process. */
export interface SandboxProcess {
  readonly baseUrl: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export async function spawnSandbox(options: ChildOptions): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    ['--import', './test/setup/loopback-guard.ts', import.meta.filename, JSON.stringify(options)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { baseUrl, apiKey } = JSON.parse(line) as { baseUrl: string; apiKey: string };
  return {
    baseUrl,
    apiKey,
    async close() {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}

if (process.argv[1] === import.meta.filename) {
  const { clockFactor, ...options } = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
  const scaled = clockFactor ? { now: scaledClock(clockFactor).now, followWallClock: true } : {};
  const sandbox = await startSandbox({ ...options, ...scaled });
  process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })}\n`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.stdin.on('end', stop).resume();
  process.on('SIGTERM', stop);
}
