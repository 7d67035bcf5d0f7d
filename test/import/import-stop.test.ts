/**
 * SIGTERM while `aivis import-prompts` waits between two receipt polls: the wait ends at once
 * (the polls run on a test clock that never moves, so only the stop can end it), the command
 * fails with the stop's message naming the journal, and the next run resumes by polling the
 * receipt the journal recorded, importing nothing twice.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportPromptsArgs } from '../../src/cli/commands/import-prompts.ts';
import { importPrompts } from '../../src/cli/commands/import-prompts.ts';
import { AivisError } from '../../src/errors.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { TestClock } from '../client/support/test-clock.ts';
// Bounded in time, not in event-loop turns: the journal's fsyncs before the first poll take
// real disk time, which a busy machine stretches past any fixed number of turns.
import { until } from '../support/until.ts';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

describe('import-prompts stopped by SIGTERM', () => {
  it('ends the wait between polls, names the journal, and the next run polls the same receipt', async () => {
    const file = await h.file('stopped.csv', promptsCsv(3, 700));
    const journal = h.options(file).journal;
    const clock = new TestClock();
    const argv = { config: h.config, website: h.websiteId, file } as ImportPromptsArgs;
    const outcome = importPrompts(argv, { clock, write: () => {}, logger: silentLogger }).then(
      () => 'finished',
      (error: unknown) => error,
    );
    // The first poll answered `running`: the command now sleeps until the next one.
    await until(() => clock.sleeping === 1 && clock.pending === 1, 'the wait between two polls');
    expect(h.sandbox.stats.byRoute['prompt-imports.get']).toBe(1);
    process.emit('SIGTERM', 'SIGTERM');
    const error = await outcome;
    expect(error).toBeInstanceOf(AivisError);
    expect((error as AivisError).exitCode).toBe(143);
    expect((error as AivisError).message).toBe(
      `stopped by SIGTERM: the journal ${journal} records every partition sent; run the same command again to resume (nothing is imported twice)`,
    );
    expect(clock.pending).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(0);

    const recorded = JSON.parse(await readFile(journal, 'utf8')).partitions['0'].attempts;
    expect(recorded.map((a: { status: string }) => a.status)).toEqual(['accepted']);
    const posts = h.sandbox.stats.byRoute['prompts.import'];
    const resumed = await h.run({ file, json: true });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.out).partitions).toMatchObject([
      { import_id: recorded[0].import_id, counts: { created: 3 } },
    ]);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(posts);
  });
});
