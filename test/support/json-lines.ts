/**
 * Reading aivis's output off a terminal: stderr is JSON log lines, the last of a failed run
 * `{"level":"error","msg":...,"exit_code":N}` (what a terminal shows as `aivis: <msg>`);
 * `state show` prints JSON lines on stdout.
 */
import { expect } from 'vitest';

/** Every non-empty line parsed as JSON; a line that is not JSON fails the test. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The message of the run's last stderr line. */
export function finalMessage(stderr: string): string {
  return String(jsonLines(stderr).at(-1)?.msg);
}

/** The line a run that failed with `message` (exactly, or matching) and `exitCode` ends with. */
export function failureLine(message: string | RegExp, exitCode: number): Record<string, unknown> {
  const msg = typeof message === 'string' ? message : expect.stringMatching(message);
  return { ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), level: 'error', msg, exit_code: exitCode };
}
