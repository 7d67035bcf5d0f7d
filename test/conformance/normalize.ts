/**
 * The logical comparison form of a row: what a user reading the table would call "the same
 * value", whatever the warehouse's driver hands back.
 * - int64 -> bigint (from number, bigint or decimal text)
 * - float64 -> number
 * - timestamp -> ISO-8601 UTC with exactly six fractional digits (`...05.123000Z`)
 * - json -> the parsed value (key order and whitespace do not count)
 * - string, boolean -> as is; null stays null
 */
import type { ColumnSpec, TableSpec } from '../../src/destination/table-spec.ts';

export type LogicalValue = string | number | bigint | boolean | null | object;
export type LogicalRow = Record<string, LogicalValue>;

export function normalizeRow(table: TableSpec, row: Readonly<Record<string, unknown>>): LogicalRow {
  const out: LogicalRow = {};
  for (const col of table.columns) out[col.name] = normalizeValue(col, row[col.name]);
  return out;
}

export function normalizeValue(col: ColumnSpec, value: unknown): LogicalValue {
  if (value === null || value === undefined) return null;
  switch (col.type) {
    case 'int64':
      return BigInt(value as string | number | bigint);
    case 'float64':
      return Number(value);
    case 'timestamp':
      return normalizeTimestamp(value instanceof Date ? value.toISOString() : String(value));
    case 'json':
      return typeof value === 'string' ? (JSON.parse(value) as LogicalValue) : (value as LogicalValue);
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 't' || value === 'true' || value === 1 || value === '1';
    case 'string':
      return String(value);
  }
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Accepts `2026-01-02T03:04:05.1Z`, `2026-01-02T03:04Z`, `2026-01-02 03:04:05.123456+00`, `...+05:30`, and so on. */
export function normalizeTimestamp(text: string): string {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) throw new Error(`not a timestamp: ${JSON.stringify(text)}`);
  const [, date, time, fraction = '', zone = 'Z'] = m;
  const offset =
    zone.toUpperCase() === 'Z'
      ? 'Z'
      : zone.length === 3
        ? `${zone}:00`
        : zone.includes(':')
          ? zone
          : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const seconds = new Date(`${date}T${time}${offset}`).toISOString().slice(0, 19);
  return `${seconds}.${fraction.padEnd(6, '0').slice(0, 6)}Z`;
}
