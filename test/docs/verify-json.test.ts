/**
 * The docs and `aivis verify --help` say what `verify --json` prints: one JSON object per
 * stream, each on a line of its own (test/cli/cli-verbs.test.ts runs it on two streams and
 * reads exactly that).
 */
import { describe, expect, it, vi } from 'vitest';
import { cliParser } from '../../src/cli/main.ts';
import { docFiles } from './markdown.ts';

describe('verify --json in the docs', () => {
  it("operations.md's report says one JSON object per stream, a line each", () => {
    const operations = docFiles()
      .find((f) => f.name === 'docs/operations.md')!
      .text.replace(/\s+/g, ' ');
    expect(operations).toContain(
      '**Report** (stdout; with `--json`, one JSON object per stream, each on a line of its own, in the order of `--streams`)',
    );
  });

  it('the --json flag says so in verify --help', async () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
    try {
      await cliParser(['verify', '--help'], async () => {}).parseAsync();
    } finally {
      log.mockRestore();
    }
    expect(printed.join('\n').replace(/\s+/g, ' ')).toContain(
      '--json Print the report as JSON: one object per stream, one a line',
    );
  });
});
