/**
 * A row as the JSON object a protocol message carries (docs/protocols.md#records): each
 * column by name, a `json` column (`_raw` included) as the JSON value it holds, written
 * verbatim rather than parsed and serialized again, and an int64 beyond 2^53 as its exact
 * digits. Text is written as `jsonLine` writes it (controls, line separators and bidi controls
 * escaped), so the message a row is spliced into stays one line.
 */
import type { Row, TableSpec } from '../destination/table-spec.ts';
import { inertJson, jsonLine } from '../log/inert-text.ts';

export function rowJson(row: Row, columns: TableSpec['columns']): string {
  let text = '{';
  for (const column of columns) {
    const value = row[column.name] ?? null;
    const cell =
      value === null
        ? 'null'
        : column.type === 'json'
          ? inertJson(String(value))
          : typeof value === 'bigint'
            ? value.toString()
            : jsonLine(value);
    text += `${text === '{' ? '' : ','}${jsonLine(column.name)}:${cell}`;
  }
  return `${text}}`;
}
