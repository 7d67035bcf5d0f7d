/** The flags of a table or query source, checked before anything is read or sent. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './import-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('', { websites: 0 });
});
afterAll(() => h.sandbox.close());

describe('import-prompts source flags', () => {
  it('takes exactly one input, --all only with a table or query, and a destination to read', async () => {
    const file = await h.file('p.csv', 'prompt_text\nWhat is the best CRM?\n');
    expect(await h.run({ file, 'from-table': 'prompts' })).toEqual({
      code: 2,
      out: '',
      error: 'give one input, not --file and --from-table',
    });
    expect(await h.run({ file, all: true })).toEqual({
      code: 2,
      out: '',
      error: '--all is for --from-table and --from-query: a --file import is kept by its journal',
    });
    expect(await h.run({})).toEqual({
      code: 2,
      out: '',
      error: '--file, --from-table or --from-query is required (aivis import-prompts --website ID --file F)',
    });
    expect(await h.run({ 'from-table': 'prompts' })).toEqual({
      code: 2,
      out: '',
      error: `--from-table reads the configured destination, and ${h.config} names none: add a destination: block`,
    });
    expect(h.sandbox.stats.byRoute['prompts.import'] ?? 0).toBe(0);
  });
});
