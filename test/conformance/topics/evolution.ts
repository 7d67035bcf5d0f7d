/**
 * Schema evolution (docs/served-contract.md#schema-evolution): a column the served contract adds is filled for
 * the rows already loaded, from their `_raw`, to exactly the value the loader writes for a new
 * row; a type the old column cannot hold lands in `<column>__<type>`, the old values untouched.
 */
import { expect } from 'vitest';
import { parseJsonBody } from '../../../src/client/json-body.ts';
import type { Row } from '../../../src/destination/table-spec.ts';
import { MAX_DESCRIPTION_LENGTH } from '../../../src/contract/contract-document.ts';
import type { DeclaredField } from '../../../src/contract/declared-fields.ts';
import { type DeclaredRecords, planEvolution } from '../../../src/evolution/evolution-plan.ts';
import { evolvedCells } from '../../../src/evolution/raw-cell.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';
import { analyticsHistoryTable, citationsTable } from '../../../src/tables/index.ts';
import { flushOf } from '../fixtures.ts';
import { conformanceTest, expected } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';

/** Declared fields by `<stream>[.<object>...]`, as `declaredFields` would read them from a served document. */
const declaring =
  (fields: Readonly<Record<string, DeclaredField[]>>): DeclaredRecords =>
  (stream, within) =>
    fields[[stream, ...within].join('.')] ?? [];

const field = (name: string, schema: DeclaredField['schema'], description?: string): DeclaredField => ({
  name,
  schema,
  required: false,
  nullable: true,
  ...(description ? { description } : {}),
});

/** Citation fields a served contract declares, one of each logical type. */
const CITATION_FIELDS: DeclaredField[] = [
  field('url', { type: 'string' }, 'The cited page.'),
  field('rank', { type: 'integer' }),
  field('score', { type: 'number' }),
  field('is_brand', { type: 'boolean' }),
  field('cited_at', { type: 'string', format: 'date-time' }),
  field('tags', { type: 'array', items: { type: 'string' } }),
  field('_raw', { type: 'string' }),
];

/** Records as the API sent them (JSON text: big integers exact), with the edge values of each type. */
const CITATION_BODIES = [
  '{"url":"https://example.com/ü/漢字?q=1&x=\'\\"","rank":1,"score":0.1,"is_brand":true,"cited_at":"2026-01-02T03:04Z","tags":["a","ü"],"_raw":"mine"}',
  '{"url":"","rank":9007199254740993,"score":1e2,"is_brand":false,"cited_at":"2026-01-02T03:04:05.123456789Z","tags":[]}',
  '{"url":7,"rank":5.0,"score":-0.000001,"cited_at":"2026-02-30T00:00:00Z","tags":{"nested":{"deep":[1,{"k":null}]}}}',
  '{"url":null,"rank":12345678901234567890,"score":123456789012345678901234,"is_brand":"true","cited_at":"2026-01-02 03:04:05Z","tags":null}',
  '{"rank":-9223372036854775808,"score":"1.5","cited_at":"2024-02-29T23:59:59.9Z"}',
  '{"rank":2.5,"cited_at":"2026-01-02T03:04:05Z","url":"😀 \\u00e9"}',
  '{"rank":"3","score":true,"cited_at":1767323045}',
];

/** A citation row whose `_raw` is `body`, its id `cit_<i>`. */
export const citationRow = (i: number, body: string): Row => ({
  id: `cit_${String(i).padStart(3, '0')}`,
  website_id: 'web_1',
  analysis_id: null,
  provider: null,
  observed_at: null,
  available_at: null,
  _synced_at: '2026-01-01T00:00:00Z',
  _run_id: 'run_1',
  _raw: body,
  _workspace: 'default',
});

/** The row the loader writes under `columns`: the contract's cells and the evolved ones from the parsed record. */
const withCells = (row: Row, columns: Parameters<typeof evolvedCells>[0]): Row => ({
  ...row,
  ...evolvedCells(columns, parseJsonBody(String(row._raw)).raw),
});

export function evolutionTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'evolution',
    'new citation columns are filled from _raw to what the loader writes',
    async ({ destination, rows }) => {
      await destination.ensureTables([citationsTable]);
      const old = CITATION_BODIES.map((body, i) => citationRow(i, body));
      await commitFlush(destination, flushOf(citationsTable, old));
      const declared = declaring({ citations: CITATION_FIELDS });
      const [plan] = planEvolution(
        [citationsTable],
        declared,
        await destination.columnTypes([citationsTable, analyticsHistoryTable]),
      );
      expect(plan!.added.map((c) => `${c.column.name} ${c.column.type}`)).toEqual([
        'url string',
        'rank int64',
        'score float64',
        'is_brand boolean',
        'cited_at timestamp',
        'tags json',
        'raw_4930dd86 string',
      ]);
      await destination.ensureTables([plan!.table]);
      await destination.fillFromRaw(plan!.table, plan!.added);
      const fresh = citationRow(CITATION_BODIES.length, CITATION_BODIES[0]!.replace('"rank":1', '"rank":2'));
      await commitFlush(destination, flushOf(plan!.table, [withCells(fresh, plan!.columns)]));
      // Floats as the destination's driver reads them (Snowflake's carries 15 digits).
      const read = target.readFloat ?? ((f: number) => f);
      const loaded = [...old, fresh]
        .map((row) => withCells(row, plan!.columns))
        .map((row) => ({ ...row, score: typeof row.score === 'number' ? read(row.score) : row.score }));
      expect(await rows(plan!.table)).toEqual(expected(plan!.table, loaded));
      // The loader's values, spelt out for the edge rows: none is converted from another JSON type.
      const byId = new Map((await rows(plan!.table)).map((r) => [r.id, r]));
      expect(byId.get('cit_000')).toMatchObject({
        rank: 1n,
        cited_at: '2026-01-02T03:04:00.000000Z',
        raw_4930dd86: 'mine',
      });
      expect(byId.get('cit_001')).toMatchObject({ rank: 9007199254740993n, cited_at: '2026-01-02T03:04:05.123456Z' });
      expect(byId.get('cit_002')).toMatchObject({
        url: null,
        rank: 5n,
        cited_at: null,
        tags: { nested: { deep: [1, { k: null }] } },
      });
      expect(byId.get('cit_003')).toMatchObject({ url: null, rank: null, is_brand: null, cited_at: null, tags: null });
      expect(byId.get('cit_004')).toMatchObject({ rank: -9223372036854775808n, score: null });
      expect(byId.get('cit_005')).toMatchObject({ rank: null, url: '😀 é' });
      expect(byId.get('cit_006')).toMatchObject({ rank: null, score: null, cited_at: null });
    },
  );

  conformanceTest(
    target,
    'evolution',
    'a changed type lands in <column>__<type>, the old values untouched',
    async ({ destination, rows }) => {
      await destination.ensureTables([citationsTable]);
      const asInteger = declaring({ citations: [field('rank', { type: 'integer' })] });
      const [first] = planEvolution(
        [citationsTable],
        asInteger,
        await destination.columnTypes([citationsTable, analyticsHistoryTable]),
      );
      await destination.ensureTables([first!.table]);
      const old = [citationRow(0, '{"rank":3}'), citationRow(1, '{"rank":"top"}')];
      await commitFlush(
        destination,
        flushOf(
          first!.table,
          old.map((r) => withCells(r, first!.columns)),
        ),
      );

      const asText = declaring({ citations: [field('rank', { type: 'string' })] });
      const [second] = planEvolution(
        [citationsTable],
        asText,
        await destination.columnTypes([citationsTable, analyticsHistoryTable]),
      );
      expect(second!.added.map((c) => c.column.name)).toEqual(['rank__string']);
      expect(second!.columns.map((c) => `${c.column.name} ${c.column.type}`)).toEqual([
        'rank int64',
        'rank__string string',
      ]);
      await destination.ensureTables([second!.table]);
      await destination.fillFromRaw(second!.table, second!.added);
      await commitFlush(
        destination,
        flushOf(second!.table, [withCells(citationRow(2, '{"rank":"second"}'), second!.columns)]),
      );
      const stored = await rows(second!.table);
      expect(stored.map((r) => [r.id, r.rank, r.rank__string])).toEqual([
        ['cit_000', 3n, null],
        ['cit_001', null, 'top'],
        ['cit_002', null, 'second'],
      ]);
    },
  );

  conformanceTest(
    target,
    'evolution',
    'a new metric key of history points is a filled column',
    async ({ destination, rows }) => {
      await destination.ensureTables([analyticsHistoryTable]);
      const declared = declaring({
        analytics_history: [field('metrics', { type: 'object' })],
        'analytics_history.metrics': [field('visibility', { type: 'number' }), field('reach', { type: 'number' })],
      });
      const point = (metricsJson: string) =>
        `{"website_id":"web_1","analysis_id":"ana_1","metrics":${metricsJson},"counts":{}}`;
      const base: Row = Object.fromEntries(analyticsHistoryTable.columns.map((c) => [c.name, null]));
      const row = (analysis: string, raw: string): Row => ({
        ...base,
        website_id: 'web_1',
        analysis_id: analysis,
        as_of: '2026-01-01T00:00:00Z',
        available_at: '2026-01-01T00:00:00Z',
        unavailable_reasons: '{}',
        projection_version: 'public_metrics_v1',
        metric_definition_bundle_version: 'public_metric_definitions_v1',
        metric_precision_version: 'metric_precision_v1',
        metric_definition_versions: '{}',
        is_partial: false,
        _synced_at: '2026-01-01T00:00:00Z',
        _run_id: 'run_1',
        _raw: raw,
        _workspace: 'default',
      });
      await commitFlush(
        destination,
        flushOf(analyticsHistoryTable, [
          row('ana_1', point('{"visibility":1,"reach":42.5}')),
          row('ana_2', point('{}')),
        ]),
      );
      const [plan] = planEvolution(
        [analyticsHistoryTable],
        declared,
        await destination.columnTypes([citationsTable, analyticsHistoryTable]),
      );
      expect(plan!.added.map((c) => `${c.column.name} ${c.path.join('.')}`)).toEqual(['reach metrics.reach']);
      await destination.ensureTables([plan!.table]);
      await destination.fillFromRaw(plan!.table, plan!.added);
      expect((await rows(plan!.table)).map((r) => [r.analysis_id, r.visibility, r.reach])).toEqual([
        ['ana_1', null, 42.5],
        ['ana_2', null, null],
      ]);
    },
  );

  conformanceTest(
    target,
    'evolution',
    'runs adding columns to one table at once keep them all, and their fills agree',
    async ({ destination, another, rows }) => {
      await destination.ensureTables([citationsTable]);
      await commitFlush(destination, flushOf(citationsTable, [citationRow(0, '{"url":"u","rank":4}')]));
      const [other, third] = [await another(), await another()];
      const existing = await destination.columnTypes([citationsTable]);
      const [url] = planEvolution(
        [citationsTable],
        declaring({ citations: [field('url', { type: 'string' })] }),
        existing,
      );
      const [rank] = planEvolution(
        [citationsTable],
        declaring({ citations: [field('rank', { type: 'integer' })] }),
        existing,
      );
      await Promise.all([
        destination.ensureTables([url!.table]),
        other.ensureTables([rank!.table]),
        third.ensureTables([url!.table]),
      ]);
      await Promise.all([
        destination.fillFromRaw(url!.table, url!.added),
        other.fillFromRaw(rank!.table, rank!.added),
        third.fillFromRaw(url!.table, url!.added),
      ]);
      await destination.ensureTables([url!.table, rank!.table]);
      const both = { ...citationsTable, columns: [...url!.table.columns, rank!.columns[0]!.column] };
      expect((await rows(both)).map((r) => [r.id, r.url, r.rank])).toEqual([['cit_000', 'u', 4n]]);
    },
  );

  conformanceTest(
    target,
    'evolution',
    'fields whose names collide get a column each, a name no column can take is skipped alone, a long description is stored',
    async ({ destination, rows }) => {
      await destination.ensureTables([citationsTable]);
      const names = ['URL', 'Url', 'url', 'url_e7a241de', '_raw', 'raw_4930dd86', 'a\u0000b'];
      const body = JSON.stringify(Object.fromEntries(names.map((name) => [name, `value of ${name}`])));
      await commitFlush(destination, flushOf(citationsTable, [citationRow(0, body)]));
      // As long as the contract reader keeps a description, with what breaks a naive literal.
      const description = `${"It's \\ a 'quoted' \\' text; ".repeat(60)}`.slice(0, MAX_DESCRIPTION_LENGTH);
      const declared = declaring({ citations: names.map((name) => field(name, { type: 'string' }, description)) });
      const [plan] = planEvolution([citationsTable], declared, await destination.columnTypes([citationsTable]));
      expect(plan!.unnamable).toEqual(['"a\\u0000b"']);
      await destination.ensureTables([plan!.table]);
      await destination.fillFromRaw(plan!.table, plan!.added);
      const fresh = citationRow(1, body);
      await commitFlush(destination, flushOf(plan!.table, [withCells(fresh, plan!.columns)]));
      const byColumn = Object.fromEntries(plan!.columns.map((c) => [c.column.name, c.path[0]]));
      expect(Object.keys(byColumn)).toHaveLength(6);
      for (const row of await rows(plan!.table))
        for (const [column, name] of Object.entries(byColumn))
          expect([column, row[column]]).toEqual([column, `value of ${name}`]);
    },
  );
}
