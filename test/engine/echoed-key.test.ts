/**
 * A server that echoes the API key inside a record never gets it stored: the key becomes
 * `[REDACTED]` in the record's columns, `_raw` and `_aivis_rejected` alike, and the run
 * summary counts the copies. Engine behaviour, so the fake destination proves it.
 */
import { expect, it } from 'vitest';
import { formatRunSummary } from '../../src/cli/run-summary.ts';
import { createClientStats } from '../../src/client/client-stats.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { rejectedTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';

const openWorld = useEngineWorlds();

it('stores an echoed API key as [REDACTED] in rows, _raw and _aivis_rejected, and counts it', async () => {
  const world = await openWorld();
  const key = world.sandbox.apiKey;
  const [first, second] = world.sandbox.truth.websites().filter((w) => w.last_analysis_at !== null);
  const echo = (websiteId: string, field: string) =>
    world.sandbox.faults.set({
      kind: 'malformed_record',
      routes: ['mentions'],
      websites: [websiteId],
      count: 1,
      field,
      value: `the key is ${key}, again: ${key}`,
    });
  echo(first!.id, 'sentence_text');
  echo(second!.id, 'sentiment'); // not a number: the record is rejected with its text
  const summary = await world.sync();
  expect(summary.exitCode).toBe(3);
  expect(summary.counters.echoedKeys).toBe(4);
  expect(formatRunSummary(summary, createClientStats(), 'duckdb')).toContain(
    '  the API sent the API key back 4 times inside its responses; stored as [REDACTED]',
  );

  const firstMentionId = [...world.sandbox.truth.mentions(first!.id)][0]!.id;
  const mention = (await world.rows(STREAM_TABLES.mentions[0]!)).find((r) => r.id === firstMentionId)!;
  expect(mention.sentence_text).toBe('the key is [REDACTED], again: [REDACTED]');
  expect(JSON.stringify(mention._raw)).toContain('the key is [REDACTED], again: [REDACTED]');
  const [rejected] = await world.rows(rejectedTable);
  expect(JSON.stringify(rejected!._raw)).toContain('the key is [REDACTED], again: [REDACTED]');
  for (const table of [...Object.values(STREAM_TABLES).flat(), ...ENGINE_TABLES])
    expect(JSON.stringify(await world.rows(table), (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      key,
    );
});
