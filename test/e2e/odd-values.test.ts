/**
 * One odd value never stops a run: an unpaired surrogate in an unknown field of a record is
 * stored as U+FFFD (on every destination: the conformance suite's types topic), and numbers
 * beyond double range keep their exact text in `_raw`. Engine behaviour, run on the fake destination, DuckDB in memory (whose
 * JSON reader refused the whole flush on the surrogate) and on Snowflake, whose PARSE_JSON
 * refuses lone surrogate escapes and numbers beyond double range (the stand-in's
 * parse-json-check.ts): what aivis sends it must be JSON it takes.
 */
import { afterEach, expect, it } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { useSnowflakeStandIn } from '../stand-ins/snowflake/stand-in-hooks.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';
import { openWorld as openTargetWorld } from './sync-suite.ts';

const openDuckdbWorld = useEngineWorlds();
const sf = useSnowflakeStandIn();
let snowflakeWorld: Awaited<ReturnType<typeof openTargetWorld>> | undefined;
afterEach(async () => {
  await snowflakeWorld?.close();
  snowflakeWorld = undefined;
});
const openSnowflakeWorld = async () =>
  (snowflakeWorld = await openTargetWorld({
    name: 'snowflake',
    create: async (schema) => createSnowflakeDestination(sf.setup().config(schema), { logger: silentLogger }),
    readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
    comments: (schema) => sf.reader().comments(schema),
  }));
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

it.each([
  ['DuckDB', openDuckdbWorld],
  ['Snowflake', openSnowflakeWorld],
])(
  '%s: stores an unpaired surrogate and numbers beyond double range without failing the run',
  async (_name, openWorld) => {
    const world = await openWorld();
    const [first, second] = world.sandbox.truth.websites().filter((w) => w.last_analysis_at !== null);
    const firstMention = (id: string) => [...world.sandbox.truth.mentions(id)][0]!.id as string;
    world.sandbox.faults.set({
      kind: 'malformed_record',
      routes: ['mentions'],
      websites: [first!.id],
      count: 1,
      field: 'extensions.note',
      value: 'odd \udc00 text \ud800',
    });
    world.sandbox.faults.set({
      kind: 'malformed_record',
      routes: ['mentions'],
      websites: [second!.id],
      count: 1,
      field: 'extensions',
      value: { huge: rawJson('1e400'), negative: rawJson('-1e400'), tiny: rawJson('1e-400') },
    });
    expect((await world.sync()).exitCode).toBe(0);

    const mentions = await world.rows(STREAM_TABLES.mentions[0]!);
    const rawOf = (id: string) => {
      const raw = mentions.find((r) => r.id === id)!._raw;
      return (typeof raw === 'string' ? JSON.parse(raw) : raw).extensions;
    };
    expect(rawOf(firstMention(first!.id))).toEqual({ note: 'odd \ufffd text \ufffd' });
    expect(rawOf(firstMention(second!.id))).toEqual({ huge: '1e400', negative: '-1e400', tiny: '1e-400' });
    // Every mention of both websites is loaded: the odd values cost no row.
    for (const { id } of [first!, second!])
      expect(mentions.filter((r) => r.website_id === id).length).toBe([...world.sandbox.truth.mentions(id)].length);
  },
);
