/** `aivis <args>` as a user runs it: a child process, loopback guard loaded, output collected. */
import { spawn } from 'node:child_process';
import { childEnv } from './child-env.ts';

/** How the process ended and what it printed. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `as`: another user to run it as, through util-linux's `setpriv` (no capabilities, no
 * supplementary groups): the suite runs as root, whom file permissions do not bind.
 */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv, as?: { uid: number; gid: number }) {
  const command = [process.execPath, '--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args];
  const user = as ? ['setpriv', `--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups'] : [];
  const [file, ...rest] = [...user, ...command] as [string, ...string[]];
  const child = spawn(file, rest, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
