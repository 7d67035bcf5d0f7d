/**
 * How `aivis query` prints a result (docs/cli.md#query): `table` (aligned columns, for a
 * terminal), `csv` (RFC 4180 with a header row) or `json` (one array of objects keyed by column).
 * CSV and JSON are written a page at a time as the rows arrive, so memory stays flat however many
 * rows there are; a table needs every row's width first, so it shows the first `TABLE_ROW_CAP`
 * rows and says when there are more.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { QueryCell, QueryResult } from '../destination/read-only-query.ts';
import { jsonLine, terminalLine } from '../log/inert-text.ts';

export const QUERY_FORMATS = ['table', 'csv', 'json'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

/** Rows a table shows at most; `--format csv` or `json` prints every row. */
export const TABLE_ROW_CAP = 1000;

export async function writeQueryResult(result: QueryResult, format: QueryFormat, out: Writable): Promise<void> {
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  switch (format) {
    case 'csv':
      await write(stringify([result.columns]));
      for await (const page of result.pages) await write(stringify(page.map((row) => row.map(csvText))));
      return;
    case 'json': {
      let rows = 0;
      for await (const page of result.pages) {
        const lines = page.map((row) => `${rows++ === 0 ? '[' : ','}\n${jsonLine(rowObject(result.columns, row))}`);
        await write(lines.join(''));
      }
      await write(rows === 0 ? '[]\n' : '\n]\n');
      return;
    }
    case 'table':
      await write(await table(result));
  }
}

/** A cell in CSV: NULL as an empty field, nested values as JSON text. */
function csvText(cell: QueryCell): string {
  return cell === null ? '' : text(cell);
}

function text(cell: Exclude<QueryCell, null>): string {
  return typeof cell === 'object' ? jsonLine(jsonValue(cell)) : String(cell);
}

/** Integers beyond 2^53 as strings, so no JSON reader rounds them. */
function jsonValue(cell: QueryCell): unknown {
  if (typeof cell === 'bigint') return Number.isSafeInteger(Number(cell)) ? Number(cell) : String(cell);
  if (Array.isArray(cell)) return cell.map(jsonValue);
  if (cell !== null && typeof cell === 'object')
    return Object.fromEntries(Object.entries(cell).map(([key, value]) => [key, jsonValue(value)]));
  return cell;
}

function rowObject(columns: readonly string[], row: readonly QueryCell[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((name, i) => [name, jsonValue(row[i] ?? null)]));
}

/**
 * The rows as aligned columns, numbers to the right, NULL spelt out, control characters shown
 * escaped (a value cannot move the cursor or forge a line), and a count at the end.
 */
async function table(result: QueryResult): Promise<string> {
  const rows: string[][] = [];
  const numeric: boolean[] = result.columns.map(() => false);
  let more = false;
  for await (const page of result.pages) {
    for (const row of page) {
      if (rows.length === TABLE_ROW_CAP) {
        more = true;
        break;
      }
      rows.push(
        row.map((cell, i) => {
          if (typeof cell === 'number' || typeof cell === 'bigint') numeric[i] = true;
          return cell === null ? 'NULL' : terminalLine(text(cell));
        }),
      );
    }
    if (more) break;
  }
  const header = result.columns.map(terminalLine);
  const widths = header.map((name, i) => Math.max(name.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[], align: readonly boolean[]) =>
    cells
      .map((cell, i) => (align[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  const count = `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'}${more ? `; only the first ${TABLE_ROW_CAP} are shown: add --format csv to print every row` : ''})`;
  return [
    line(header, []),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...rows.map((row) => line(row, numeric)),
    count,
    '',
  ].join('\n');
}
