/** Every logical type survives a write and a read unchanged (or by the target's declared text rule). */
import { expect } from 'vitest';
import type { Row } from '../../../src/destination/table-spec.ts';
import { flushOf, kindsRow, kindsTable } from '../fixtures.ts';
import { conformanceTest, expected, type Harness } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';

const STRINGS: Readonly<Record<string, string>> = {
  emoji: '😀 👍🏽 👨‍👩‍👧 🇯🇵',
  rtl: 'مرحبا بالعالم — עברית',
  combining: 'e\u0301 n\u0303 A\u030a Z\u0351\u0352',
  cjk: '中文 日本語 한국어',
  newlines: 'one\ntwo\r\nthree\rfour\n',
  quotes: `"double" 'single' "" ''`,
  backslashes: 'C:\\path\\to \\N \\\\ \\"',
  tabs: 'a\tb\t\tc',
  commas: 'a,b,,c,',
  csv: '"x","y"\n"z"',
  copyNull: '\\N',
  nullWord: 'NULL',
  spaces: '  padded  ',
};

const INT64S: readonly (number | bigint)[] = [
  0,
  1,
  -1,
  9007199254740991,
  9007199254740993n,
  9223372036854775807n,
  -9007199254740993n,
  -9223372036854775808n,
];

const FLOATS: readonly number[] = [
  0,
  1.5,
  -2.25,
  0.1,
  1e-300,
  1.7976931348623157e308,
  Math.PI,
  123456789.12345679,
  5e-324,
];

const TIMESTAMPS: readonly string[] = [
  '2026-01-02T03:04:05.123456Z',
  '1970-01-01T00:00:00.000000Z',
  '2026-12-31T23:59:59.999999Z',
  '2000-02-29T12:00:00Z',
  '2026-01-02T03:04:05.1Z',
  '1969-07-20T20:17:40.000001Z',
];

const JSONS: readonly string[] = [
  '{"a":{"b":[1,2,{"c":null}]},"u":"日本 😀 \\"q\\" \\\\ \\n","n":-1.5e10,"big":12345678901234,"t":true,"f":0.1}',
  '[]',
  '{}',
  '[1,"two",[3],{"four":4}]',
  '"just a string"',
  '42',
  '{"spaces in key":" v ","עברית":"rtl","emoji😀":"😀"}',
];

export function typesTopic(target: ConformanceTarget): void {
  /** Writes `rows` and reads them back equal, each as `asRead` says a read returns it. */
  const roundTrip = async (h: Harness, rows: Row[], asRead: (row: Row) => Row = (row) => row) => {
    await h.destination.ensureTables([kindsTable]);
    await commitFlush(h.destination, flushOf(kindsTable, rows));
    expect(await h.rows(kindsTable)).toEqual(expected(kindsTable, rows.map(asRead)));
  };
  const ids = (n: number) => `r${String(n).padStart(3, '0')}`;

  conformanceTest(
    target,
    'types',
    'strings round-trip exactly (unicode, newlines, quotes, backslashes, tabs, commas)',
    (h) =>
      roundTrip(
        h,
        Object.values(STRINGS).map((s, n) => kindsRow(ids(n), { s })),
      ),
  );

  conformanceTest(target, 'types', 'empty string and NULL stay distinct', (h) =>
    roundTrip(h, [kindsRow('r001', { s: '' }), kindsRow('r002', { s: null }), kindsRow('r003', { s: ' ' })]),
  );

  conformanceTest(target, 'types', 'int64 stays exact beyond 2^53, negatives included', (h) =>
    roundTrip(
      h,
      INT64S.map((i, n) => kindsRow(ids(n), { i })),
    ),
  );

  conformanceTest(target, 'types', 'float64 round-trips', (h) => {
    const read = target.readFloat ?? ((f: number) => f);
    return roundTrip(
      h,
      FLOATS.map((f, n) => kindsRow(ids(n), { f })),
      (row) => ({ ...row, f: read(row.f as number) }),
    );
  });

  conformanceTest(target, 'types', 'booleans round-trip', (h) =>
    roundTrip(h, [kindsRow('r001', { b: true }), kindsRow('r002', { b: false })]),
  );

  conformanceTest(target, 'types', 'timestamps keep microseconds', (h) =>
    roundTrip(
      h,
      TIMESTAMPS.map((t, n) => kindsRow(ids(n), { t })),
    ),
  );

  conformanceTest(
    target,
    'types',
    'timestamps beyond microseconds are truncated (never rounded) and minutes-only ones read as :00',
    async (h) => {
      const written = [
        kindsRow('r001', { t: '2026-01-02T03:04:05.9999999Z' }),
        kindsRow('r002', { t: '2026-12-31T23:59:59.999999999Z' }),
        kindsRow('r003', { t: '2026-01-02T03:04:05.123456789123Z' }),
        kindsRow('r004', { t: '2026-01-02T03:04Z' }),
      ];
      await h.destination.ensureTables([kindsTable]);
      await commitFlush(h.destination, flushOf(kindsTable, written));
      const stored = (await h.rows(kindsTable)).map((row) => [row.id, row.t]);
      expect(stored).toEqual([
        ['r001', '2026-01-02T03:04:05.999999Z'],
        ['r002', '2026-12-31T23:59:59.999999Z'],
        ['r003', '2026-01-02T03:04:05.123456Z'],
        ['r004', '2026-01-02T03:04:00.000000Z'],
      ]);
    },
  );

  conformanceTest(target, 'types', 'JSON round-trips (nested, unicode, numbers)', (h) =>
    roundTrip(
      h,
      JSONS.map((j, n) => kindsRow(ids(n), { j })),
    ),
  );

  conformanceTest(target, 'types', 'NULL in every nullable type', (h) => roundTrip(h, [kindsRow('r001')]));

  conformanceTest(
    target,
    'types',
    'unpaired UTF-16 surrogates are stored as U+FFFD in text and JSON (escaped or literal), pairs kept',
    async (h) => {
      const written = [
        kindsRow('r001', {
          s: 'a\udc00b\ud800 \ud83d\ude00',
          j: '{"k\\udc00":"x\\uD800y","pair":"\\ud83d\\ude00","literal":"\udc00","kept":"\\\\udc00"}',
        }),
      ];
      await h.destination.ensureTables([kindsTable]);
      await commitFlush(h.destination, flushOf(kindsTable, written));
      const [want] = expected(kindsTable, [
        kindsRow('r001', {
          s: 'a\ufffdb\ufffd \ud83d\ude00',
          j: '{"k\ufffd":"x\ufffdy","pair":"\ud83d\ude00","literal":"\ufffd","kept":"\\\\udc00"}',
        }),
      ]);
      expect(await h.rows(kindsTable)).toEqual([want]);
    },
  );

  conformanceTest(target, 'types', 'U+0000 is stored exactly or by the documented rule', async (h) => {
    const written = [
      kindsRow('r001', { s: 'a\u0000b\u0000', j: '{"k\\u0000":"x\\u0000y","n":[" \\u0000 "],"e":"\\\\u0000"}' }),
    ];
    await h.destination.ensureTables([kindsTable]);
    await commitFlush(h.destination, flushOf(kindsTable, written));
    const stored = target.storedText ?? ((s: string) => s);
    const [want] = expected(kindsTable, written);
    expect(await h.rows(kindsTable)).toEqual([
      { ...want, s: stored(want!.s as string), j: mapStrings(want!.j, stored) },
    ]);
  });
}

/** Applies `fn` to every string (keys included) inside a parsed JSON value. */
function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), mapStrings(v, fn)]));
  return value;
}
