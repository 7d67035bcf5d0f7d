/** `aivis <args>` as a user runs it: a child process, loopback guard loaded, output collected. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv } from './child-env.ts';

/** How the process ended and what it printed. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `cwd`: where the command runs (the repository by default), as a user's relative paths need. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd = ROOT) {
  const guard = path.join(ROOT, 'test/setup/loopback-guard.ts');
  const child = spawn(process.execPath, ['--import', guard, path.join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
