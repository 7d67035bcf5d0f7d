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

/** How a child is started when not as the suite itself is (root, in the repository). */
export interface CliSpawn {
  /**
   * Another user to run it as, through util-linux's `setpriv` (no capabilities, no
   * supplementary groups): the suite runs as root, whom file permissions do not bind.
   */
  as?: { uid: number; gid: number };
  /** Where the command runs (the repository by default), as a user's relative paths need. */
  cwd?: string;
  /** The program, relative to the repository: `src/cli/main.ts` (aivis) unless told (tap-aivis). */
  entry?: string;
  /** The instant the process's clock starts at (test/setup/shifted-clock.ts); default the machine's. */
  now?: Date;
}

export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  { as, cwd = ROOT, entry = 'src/cli/main.ts', now }: CliSpawn = {},
) {
  const guard = path.join(ROOT, 'test/setup/loopback-guard.ts');
  const clock = now ? ['--import', path.join(ROOT, 'test/setup/shifted-clock.ts')] : [];
  const command = [process.execPath, '--import', guard, ...clock, path.join(ROOT, entry), ...args];
  const user = as ? ['setpriv', `--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups'] : [];
  const [file, ...rest] = [...user, ...command] as [string, ...string[]];
  const clockEnv = now ? { AIVIS_TEST_NOW: now.toISOString() } : {};
  const child = spawn(file, rest, { cwd, env: childEnv({ ...env, ...clockEnv }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character whose UTF-8 bytes straddle two chunks stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
