/** A row as a protocol record's JSON: JSON columns verbatim, int64 exact beyond 2^53, NULL as null. */
import { describe, expect, it } from 'vitest';
import { column, tableSpec } from '../../src/destination/table-spec.ts';
import { rowJson } from '../../src/protocols/row-json.ts';

const table = tableSpec({
  name: 't',
  description: 'a table',
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false, 'key'),
    column('n', 'int64', 'a count'),
    column('x', 'float64', 'a metric'),
    column('at', 'timestamp', 'a time'),
    column('_raw', 'json', false, 'the record'),
  ],
});

describe('rowJson', () => {
  it('writes JSON columns as the JSON they hold, an int64 beyond 2^53 as its digits, a missing cell as null', () => {
    const raw = '{"id":"a\\u00e9","deep":[1,{"b":null}]}';
    const text = rowJson(
      { id: 'a"\n', n: 9007199254740993n, x: 0.1, at: '2026-01-01T00:00:00.000001Z', _raw: raw },
      table.columns,
    );
    expect(text).toBe(`{"id":"a\\"\\n","n":9007199254740993,"x":0.1,"at":"2026-01-01T00:00:00.000001Z","_raw":${raw}}`);
    expect(JSON.parse(rowJson({ id: 'b', n: null, x: null, at: null, _raw: '[]' }, table.columns))).toEqual({
      id: 'b',
      n: null,
      x: null,
      at: null,
      _raw: [],
    });
  });

  it('escapes line separators, C1 and bidi controls in text and in JSON columns: one line, parsed back exactly', () => {
    const odd = 'a\u2028b\u0085c\u202Ed\u001be';
    const text = rowJson({ id: odd, n: 1, x: null, at: null, _raw: JSON.stringify({ t: odd }) }, table.columns);
    expect(text).toBe(
      '{"id":"a\\u2028b\\u0085c\\u202ed\\u001be","n":1,"x":null,"at":null,"_raw":{"t":"a\\u2028b\\u0085c\\u202ed\\u001be"}}',
    );
    expect(JSON.parse(text)).toEqual({ id: odd, n: 1, x: null, at: null, _raw: { t: odd } });
  });

  it('writes only the columns it is given (a Singer selection), in their order', () => {
    expect(rowJson({ id: 'c', n: 1, x: 2, at: null, _raw: '{}' }, [table.columns[1]!, table.columns[0]!])).toBe(
      '{"n":1,"id":"c"}',
    );
  });
});
