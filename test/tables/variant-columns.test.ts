/**
 * A column and its variants show as one view column (docs/tables.md#type-changes): typed to
 * hold every value, the variant's value first, described as such.
 */
import { describe, expect, it } from 'vitest';
import { DUCKDB_DIALECT } from '../../connectors/duckdb/duckdb-dialect.ts';
import { POSTGRES_DIALECT } from '../../connectors/postgres/postgres-dialect.ts';
import type { ColumnSpec, ColumnType } from '../../src/destination/table-spec.ts';
import { viewDialect } from '../../src/destination/view-spec.ts';
import { mentionsTable, viewsFor } from '../../src/tables/index.ts';
import { holding, withVariantsFolded } from '../../src/tables/variant-columns.ts';

const column = (name: string, type: ColumnType, description = ''): ColumnSpec => ({
  name,
  type,
  nullable: true,
  description,
});

describe('variants folded into their column in views', () => {
  it('types the column to hold every value: the wider of two, else text', () => {
    expect(holding('int64', 'float64')).toBe('float64');
    expect(holding('float64', 'int64')).toBe('float64');
    expect(holding('string', 'json')).toBe('json');
    expect(holding('int64', 'string')).toBe('string');
    expect(holding('boolean', 'int64')).toBe('string');
  });

  it('shows rank and rank__string as one column rank, the variant read first', () => {
    const folded = withVariantsFolded([
      column('id', 'string'),
      column('rank', 'int64', 'Where it stands.'),
      column('rank__string', 'string'),
      column('rank__float64', 'float64'),
    ]);
    expect(folded.map((v) => [v.column.name, v.column.type, v.parts.map((p) => p.name)])).toEqual([
      ['id', 'string', ['id']],
      ['rank', 'string', ['rank__float64', 'rank__string', 'rank']],
    ]);
    expect(folded[1]!.column.description).toBe(
      "Where it stands. In this view: every value of `rank` and `rank__string` and `rank__float64` together, as string (a type that holds them all), the variant's where a row has one.",
    );
  });

  it.each([
    [
      'duckdb',
      DUCKDB_DIALECT,
      'COALESCE(r."position_in_response__float64", CAST(r."position_in_response" AS DOUBLE)) AS "position_in_response"',
    ],
    [
      'postgres',
      POSTGRES_DIALECT,
      'COALESCE(r."position_in_response__float64", CAST(r."position_in_response" AS DOUBLE PRECISION)) AS "position_in_response"',
    ],
  ])(
    'mentions_current on %s reads position_in_response from both columns, cast by the dialect',
    (_, dialect, expected) => {
      const evolved = {
        ...mentionsTable,
        columns: [...mentionsTable.columns, column('position_in_response__float64', 'float64')],
      };
      const view = viewsFor([evolved]).find((v) => v.name === 'mentions_current')!;
      expect(view.query(viewDialect(dialect, (name) => name))).toContain(expected);
      expect(
        view.columns.filter((c) => c.name.startsWith('position_in_response')).map((c) => [c.name, c.type]),
      ).toEqual([['position_in_response', 'float64']]);
    },
  );
});
