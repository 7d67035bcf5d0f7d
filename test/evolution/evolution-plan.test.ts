import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { readContractDocument } from '../../src/contract/contract-document.ts';
import { type DeclaredField, declaredFields } from '../../src/contract/declared-fields.ts';
import type { ColumnType } from '../../src/destination/table-spec.ts';
import { evolvedColumnName, variantColumnName } from '../../src/evolution/column-name.ts';
import { type DeclaredRecords, type ExistingColumns, planEvolution } from '../../src/evolution/evolution-plan.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { citationsTable } from '../../src/tables/index.ts';

const bundled = await readContractDocument(buildOpenApiDocument());
const ALL_TABLES = Object.values(STREAM_TABLES).flat();

const field = (name: string, schema: DeclaredField['schema']): DeclaredField => ({
  name,
  schema,
  required: false,
  nullable: false,
});

/** The bundled contract's declarations plus `extra`, keyed by `<stream>[.<object>...]`. */
const declaring =
  (extra: Readonly<Record<string, DeclaredField[]>>): DeclaredRecords =>
  (stream, within) => [...declaredFields(bundled, stream, within), ...(extra[[stream, ...within].join('.')] ?? [])];

/** Every table as the contract creates it. */
const created: ExistingColumns = new Map(
  ALL_TABLES.map((t) => [t.name, new Map(t.columns.map((c) => [c.name, c.type]))]),
);

const summary = (declared: DeclaredRecords, existing: ExistingColumns = created) =>
  Object.fromEntries(
    planEvolution(ALL_TABLES, declared, existing)
      .filter((plan) => plan.columns.length > 0)
      .map((plan) => [
        plan.table.name,
        plan.columns.map((c) => `${c.column.name} ${c.column.type} ${c.path.join('.')}`),
      ]),
  );

describe('planEvolution', () => {
  it('adds nothing under the bundled contract: every field it declares has its column', () => {
    expect(summary(declaring({}))).toEqual({});
  });

  it('a new metric key is a column of every analytics table whose object declares it, competitors only when theirs does', () => {
    const reach = [field('reach', { type: 'number' })];
    expect(
      summary(
        declaring({
          'analytics.metrics': reach,
          'analytics_history.metrics': reach,
          'analytics.providers.metrics': reach,
        }),
      ),
    ).toEqual({
      analytics_latest: ['reach float64 data.metrics.reach'],
      analytics_providers: ['reach float64 metrics.reach'],
      analytics_history: ['reach float64 metrics.reach'],
    });
    expect(
      summary(declaring({ 'analytics.competitors.counts': [field('sentiment_scored', { type: 'integer' })] })),
    ).toEqual({
      analytics_competitors: ['sentiment_scored int64 counts.sentiment_scored'],
    });
  });

  it('a new field of a record or of a breakdown entry is a column; mapped objects are not', () => {
    expect(
      summary(
        declaring({
          mentions: [field('language', { type: 'string' }), field('seen', { type: 'string', format: 'date-time' })],
          analytics: [field('region', { type: 'string' })],
          'analytics.providers': [field('model', { type: 'string' })],
          websites: [field('tags', { type: 'array', items: { type: 'string' } })],
        }),
      ),
    ).toEqual({
      websites: ['tags json tags'],
      analytics_latest: ['region string data.region'],
      analytics_providers: ['model string model'],
      mentions: ['language string language', 'seen timestamp seen'],
    });
  });

  it('a declared type an existing column cannot hold adds <column>__<type>; integer -> number adds __float64, number -> integer nothing', () => {
    const mentions = {
      mentions: [
        field('position_in_response', { type: 'number' }),
        field('sentiment', { type: 'integer' }),
        field('observed_at', { type: 'string' }),
        field('sentence_text_truncated', { type: 'string' }),
      ],
    };
    // The stream's own column is written too, with what its type holds.
    expect(summary(declaring(mentions)).mentions).toEqual([
      'position_in_response int64 position_in_response',
      'position_in_response__float64 float64 position_in_response',
      'observed_at timestamp observed_at',
      'observed_at__string string observed_at',
      'sentence_text_truncated boolean sentence_text_truncated',
      'sentence_text_truncated__string string sentence_text_truncated',
    ]);
  });

  it('an evolved column the destination holds keeps its type; a changed declaration adds a variant and only it is added', () => {
    const existing = new Map([
      ...created,
      ['citations', new Map<string, ColumnType>([...created.get('citations')!, ['rank', 'int64']])],
    ]);
    const [plan] = planEvolution(
      [citationsTable],
      declaring({ citations: [field('rank', { type: 'string' })] }),
      existing,
    );
    expect(plan!.columns.map((c) => `${c.column.name} ${c.column.type}`)).toEqual([
      'rank int64',
      'rank__string string',
    ]);
    expect(plan!.added.map((c) => c.column.name)).toEqual(['rank__string']);
    expect(plan!.table.columns.at(-1)).toMatchObject({ name: 'rank__string', nullable: true });
  });

  it('a table the destination lacks is created with its evolved columns, nothing to fill', () => {
    const [plan] = planEvolution(
      [citationsTable],
      declaring({ citations: [field('url', { type: 'string' })] }),
      new Map(),
    );
    expect(plan!.columns.map((c) => c.column.name)).toEqual(['url']);
    expect(plan!.added).toEqual([]);
  });
});

describe('planEvolution: names and bounds', () => {
  const citations = (fields: DeclaredField[], existing: ExistingColumns = created, maxColumns?: number) =>
    planEvolution([citationsTable], declaring({ citations: fields }), existing, maxColumns)[0]!;
  const text = (name: string) => field(name, { type: 'string' });

  it('gives every field a column of its own: natural names first, then hashed ones, a taken hash salted', () => {
    const plan = citations(['URL', 'Url', 'url', 'url_e7a241de', '_raw', 'raw_4930dd86'].map(text));
    expect(plan.columns.map((c) => `${c.column.name} ${c.path.join('.')}`)).toEqual([
      // `URL` hashes to url_e7a241de, which the field of that name has: it takes the hash of `URL#1`.
      'url_0b1f6547 URL',
      'url_157ce98b Url',
      'url url',
      'url_e7a241de url_e7a241de',
      'raw_b7a04300 _raw',
      'raw_4930dd86 raw_4930dd86',
    ]);
  });

  it('skips a field whose name cannot be a column, and only it', () => {
    const plan = citations([text('a\u0000b'), text('\uD800x'), text('url')]);
    expect(plan.columns.map((c) => c.column.name)).toEqual(['url']);
    expect(plan.unnamable).toEqual(['"a\\u0000b"', '"\\ud800x"']);
  });

  it('adds at most maxColumns evolved columns per table, those it holds counted; the rest stay in _raw', () => {
    const fields = Array.from({ length: 5 }, (_, i) => text(`f${i}`));
    const fresh = citations(fields, created, 3);
    expect(fresh.columns.map((c) => c.column.name)).toEqual(['f0', 'f1', 'f2']);
    expect(fresh.overCap).toEqual(['f3', 'f4']);
    // Two evolved columns held already (one of them no longer declared): one more may be added.
    const held = new Map([
      ...created,
      ['citations', new Map<string, ColumnType>([...created.get('citations')!, ['f1', 'string'], ['old', 'json']])],
    ]);
    const later = citations(fields, held, 3);
    expect(later.columns.map((c) => c.column.name)).toEqual(['f0', 'f1']);
    expect(later.added.map((c) => c.column.name)).toEqual(['f0']);
    expect(later.overCap).toEqual(['f2', 'f3', 'f4']);
  });
});

describe('evolvedColumnName', () => {
  const taken = new Set(citationsTable.columns.map((c) => c.name));
  // The hash is the first 8 hex digits of the SHA-256 of the field name (`printf %s NAME | sha256sum`).
  it.each([
    ['url', 'url'],
    ['source_rank_2', 'source_rank_2'],
    ['_raw', 'raw_4930dd86'],
    ['_workspace', 'workspace_4f5d7502'],
    ['provider', 'provider_5c4c1964'],
    ['URL', 'url_e7a241de'],
    ['Url', 'url_157ce98b'],
    ['source url', 'source_url_420ffe99'],
    ['rank__string', 'rank_string_0d00ed67'],
    ['2nd', 'f_2nd_c21365c7'],
    ['引用', 'f_e0ec651f'],
    ['a'.repeat(70), `${'a'.repeat(54)}_${'6bd5e503'}`],
  ])('%s -> %s', (name, column) => {
    expect(evolvedColumnName(name, taken)).toBe(column);
    expect(evolvedColumnName(name, taken).length).toBeLessThanOrEqual(63);
  });

  it('a variant name stays within 63 characters', () => {
    expect(variantColumnName('rank', 'string')).toBe('rank__string');
    const long = variantColumnName('b'.repeat(60), 'timestamp');
    expect(long).toMatch(/^b+_[0-9a-f]{8}__timestamp$/);
    expect(long).toHaveLength(63);
  });
});
