/**
 * The `aivis --help` excerpt the README shows is what the CLI prints: each of its lines (but the
 * `...` that stands for the rest) is a line of the real `--help` output, in the same order.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';
import { docFiles, fences } from './markdown.ts';

const HELP_FIRST_LINE = 'aivis <command> [options]';

describe("README's --help excerpt", () => {
  it('is, line for line, part of what `aivis --help` prints', async () => {
    const readme = docFiles().find((f) => f.name === 'README.md')!;
    const excerpts = fences(readme).filter((f) => f.body.startsWith(HELP_FIRST_LINE));
    expect(excerpts.length).toBe(1);
    const { code, stdout } = await runCli(['--help'], {}).done;
    expect(code).toBe(0);
    const printed = stdout.split('\n').map((line) => line.trimEnd());
    let from = 0;
    const missing: string[] = [];
    for (const line of excerpts[0]!.body.split('\n')) {
      if (line.trim() === '...' || line.trim() === '') continue;
      const at = printed.indexOf(line.trimEnd(), from);
      if (at === -1) missing.push(line);
      else from = at + 1;
    }
    expect(missing).toEqual([]);
  });
});
