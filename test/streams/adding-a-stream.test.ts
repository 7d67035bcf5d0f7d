/**
 * The recipe of docs/architecture.md#adding-a-stream, followed literally: every registered stream
 * has what its table lists, and the toy stream (test/streams/toy/) is added by exactly its files,
 * then read end to end from a loopback route into the engine tests' destination (DuckDB in
 * memory), schema evolution filling a new field's column by the toy's own mapping.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import { DEFAULT_MAX_EVOLVED_COLUMNS } from '../../schemas/config.ts';
import { BUNDLED_VALIDATION } from '../../src/contract/contract-validation.ts';
import type { DeclaredField } from '../../src/contract/declared-fields.ts';
import type { JsonSchema } from '../../src/contract/json-schema.ts';
import { readRows } from '../../src/destination/queries/read-rows.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { DeclaredRecords } from '../../src/evolution/evolution-plan.ts';
import { evolveTables } from '../../src/evolution/evolve-tables.ts';
import { FeedReader } from '../../src/feed/feed-reader.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { FlushBuffer } from '../../src/run/flush-buffer.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import { readStateEntries } from '../../src/state/state-rows.ts';
import { INITIAL_STATE } from '../../src/state/stream-state.ts';
import { STREAMS } from '../../src/streams/registry.ts';
import { streamTables } from '../../src/streams/stream.ts';
import * as TABLES from '../../src/tables/index.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { clientFixture, type ClientFixture } from '../client/support/client-fixture.ts';
import { ROOT } from '../docs/markdown.ts';
import { openFakeDestination } from '../support/fake-destination.ts';
import { missingDeclarations } from './stream-declarations.ts';
import { type NoteRecord, notesRoute } from './toy/notes-route.ts';
import { notesStream } from './toy/notes-stream.ts';
import { notesTable } from './toy/notes-table.ts';

/** The rows of the page's `| stream file | added or edited | what it holds |` table. */
function recipeFiles(page: string): { path: string; change: string }[] {
  const lines = page.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| stream file | added or edited |'));
  const rows: { path: string; change: string }[] = [];
  for (const line of header < 0 ? [] : lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [file, change] = line.split('|').slice(1, 3);
    rows.push({ path: /`([^`]+)`/.exec(file!)![1]!, change: change!.trim() });
  }
  return rows;
}

const recipe = recipeFiles(readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const filesUnder = (dir: string) => readdirSync(path.join(ROOT, dir)).map((name) => `${dir}/${name}`);

/** Where the toy stands in for each file of the recipe: its own file, or what in this test replaces a shared one. */
const TOY = {
  'schemas/<file>.ts': 'toy/note-schema.ts',
  'schemas/streams-config.ts': "notes-stream.ts's options",
  'schemas/openapi.ts': 'none: the toy is read under the bundled validation, its zod schema',
  'src/tables/<file>.ts': 'toy/notes-table.ts',
  'src/tables/index.ts': 'none: the toy imports its table',
  'src/streams/<file>.ts': 'toy/notes-stream.ts',
  'src/streams/registry.ts': 'REGISTRY below, given to the reader and to schema evolution',
  'src/sandbox/routes/<route>.ts': 'toy/notes-route.ts',
  'test/e2e/expected-rows.ts': 'the expected rows below',
  'test/streams/<file>.test.ts': 'this file',
} as const;

describe('adding a stream, as docs/architecture.md lists it', () => {
  it('is the ten files the toy follows', () => {
    expect(recipe.map((row) => row.path)).toEqual(Object.keys(TOY));
    const own = Object.values(TOY).filter((file) => file.startsWith('toy/'));
    expect(
      filesUnder('test/streams/toy')
        .map((file) => `toy/${path.basename(file)}`)
        .sort(),
    ).toEqual(own.sort());
  });

  it.each(STREAMS.map((stream) => [stream.name, stream] as const))(
    '%s has what each file of the list holds',
    (name, stream) => {
      const declaring = filesUnder('src/streams').filter((file) => source(file).includes(`name: '${name}',`));
      expect(declaring).toHaveLength(1);
      expect(source('src/streams/registry.ts')).toContain(`./${path.basename(declaring[0]!)}`);
      expect(source('schemas/streams-config.ts')).toMatch(new RegExp(`^  ${name}: `, 'm'));
      const endpoint = (typeof stream.path === 'string' ? stream.path : stream.path('{website_id}')).split('/').pop()!;
      expect(source('schemas/openapi.ts')).toContain(`/${endpoint}`);
      expect(filesUnder('src/sandbox/routes').some((file) => source(file).includes(`/${endpoint}`))).toBe(true);
      for (const table of streamTables(stream)) {
        const exported = Object.entries(TABLES).find(([, value]) => value === table)?.[0];
        expect(exported, `${table.name} re-exported from src/tables/index.ts`).toBeDefined();
        expect(source('test/e2e/expected-rows.ts')).toContain(exported);
      }
      expect(missingDeclarations(stream)).toEqual([]);
    },
  );

  it('the toy declares everything a registered stream does', () => {
    expect(missingDeclarations(notesStream)).toEqual([]);
  });
});

/** The toy's registry line: what `STREAMS` is to a registered stream. */
const REGISTRY = [notesStream];
const WEBSITE = { id: 'web_1', measured: true };
const NOW = new Date('2026-03-01T00:00:00Z');
const note = (id: string, title: string, mood: string, at: string): NoteRecord => ({
  id,
  title,
  available_at: at,
  mood,
});

const SCHEMAS: Readonly<Record<string, JsonSchema>> = { available_at: { type: 'string', format: 'date-time' } };

/** The served contract as the plan reads it: `fields` declared on the toy's records (strings; `available_at` a timestamp). */
const declaring =
  (...fields: string[]): DeclaredRecords =>
  (stream, within) =>
    stream === notesStream.name && within.length === 0
      ? fields.map(
          (name): DeclaredField => ({
            name,
            schema: SCHEMAS[name] ?? { type: 'string' },
            required: false,
            nullable: true,
          }),
        )
      : [];

describe('the toy stream, end to end', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('is read from its route into its table, and a field the contract declares later gets a column filled from _raw', async () => {
    const truth = new Map([['web_1', [note('n_1', 'First', 'calm', '2026-02-01T00:00:00.000000Z')]]]);
    f = await clientFixture({ fallback: notesRoute(truth) });
    const destination = await openFakeDestination();
    await destination.ensureTables([...ENGINE_TABLES, notesTable]);
    const config = configSchemaOf().parse({
      source: { base_url: f.server.baseUrl, api_key: 'aivis_test_key_7f3c9a1e5b' },
      destination: { type: 'duckdb', path: ':memory:' },
    });
    const run = async (runId: string, declared: DeclaredRecords) => {
      const evolution = await evolveTables({
        destination,
        tables: [notesTable],
        mode: 'evolve',
        maxColumns: DEFAULT_MAX_EVOLVED_COLUMNS,
        declared,
        logger: silentLogger,
        streams: REGISTRY,
      });
      const store = new DestinationStateStore(destination);
      const buffer = new FlushBuffer({
        bounds: destination.capabilities,
        commit: (flush) => store.commit(destination, flush),
        now: () => NOW.getTime(),
        tableOf: (table) => evolution.table(table),
      });
      const reader = new FeedReader({
        client: f.client,
        logger: silentLogger,
        config,
        observer: { pageRead: () => {}, fellBack: () => {}, streamFailed: () => {}, websiteRevoked: () => {} },
        validation: BUNDLED_VALIDATION,
        evolution,
        runId,
        workspace: 'default',
        now: () => NOW,
        position: () => INITIAL_STATE,
        streams: REGISTRY,
      });
      expect(await reader.readWebsite({ website: WEBSITE, streams: [notesStream.name] }, buffer)).toBe('done');
      await buffer.flush();
      return evolution;
    };
    // The table as the last run writes it: with the columns schema evolution added.
    const rows = async (table: TableSpec = notesTable) =>
      (await readRows(destination, table))
        .map(({ id, website_id, title, mood, _run_id }) => ({ id, website_id, title, mood, _run_id }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)));

    // The contract declares only what the toy maps: no column is added, `mood` stays in `_raw`.
    expect((await run('run_1', declaring('id', 'title', 'available_at'))).added).toEqual({});
    expect(await rows()).toEqual([
      { id: 'n_1', website_id: 'web_1', title: 'First', mood: undefined, _run_id: 'run_1' },
    ]);
    expect((await readStateEntries(destination)).map((e) => [e.stream, e.scope])).toEqual([['toy_notes', 'web_1']]);

    // It declares `mood`, which the toy's mapping does not list: a column, filled from `_raw` for the row there.
    truth.set('web_1', [...truth.get('web_1')!, note('n_2', 'Second', 'bright', '2026-02-02T00:00:00.000000Z')]);
    const evolution = await run('run_2', declaring('id', 'title', 'available_at', 'mood'));
    expect(evolution.added).toEqual({ toy_notes: ['mood'] });
    expect(await rows(evolution.table(notesTable))).toEqual([
      { id: 'n_1', website_id: 'web_1', title: 'First', mood: 'calm', _run_id: 'run_2' },
      { id: 'n_2', website_id: 'web_1', title: 'Second', mood: 'bright', _run_id: 'run_2' },
    ]);
    await destination.close();
  });

  it('without its mapping, schema evolution refuses the toy rather than leaving its table unevolved', async () => {
    f = await clientFixture();
    const destination = await openFakeDestination();
    await destination.ensureTables([notesTable]);
    await expect(
      evolveTables({
        destination,
        tables: [notesTable],
        mode: 'evolve',
        maxColumns: DEFAULT_MAX_EVOLVED_COLUMNS,
        declared: declaring('mood'),
        logger: silentLogger,
        streams: [{ ...notesStream, mappings: [] }],
      }),
    ).rejects.toThrow(
      'stream toy_notes writes table toy_notes but declares no record mapping for it in its mappings (docs/architecture.md#adding-a-stream)',
    );
    await destination.close();
  });
});
