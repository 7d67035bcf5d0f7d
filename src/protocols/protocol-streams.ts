/**
 * The streams a protocol mode offers (docs/protocols.md#streams): one per data table, in the
 * registry's order, each with the engine stream that fills it, its primary key, whether it is
 * read incrementally (the feeds) and the JSON Schema of its rows.
 */
import type { ColumnSpec, ColumnType, JsonValueType, TableSpec } from '../destination/table-spec.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import { STREAM_TABLES, STREAMS, type StreamName } from '../streams/registry.ts';

export interface ProtocolStream {
  /** The table's name: the protocol's stream name. */
  readonly name: string;
  readonly table: TableSpec;
  /** The engine stream whose reads fill the table (`analytics` fills three). */
  readonly source: StreamName;
  /** Feeds resume from saved state; the listing and snapshots are read whole every time. */
  readonly incremental: boolean;
}

export const PROTOCOL_STREAMS: readonly ProtocolStream[] = STREAMS.flatMap((stream) =>
  STREAM_TABLES[stream.name].map((table) => ({
    name: table.name,
    table,
    source: stream.name,
    incremental: stream.kind === 'feed',
  })),
);

export const PROTOCOL_STREAM_NAMES = PROTOCOL_STREAMS.map((s) => s.name);

export function protocolStream(name: string): ProtocolStream | undefined {
  return PROTOCOL_STREAMS.find((s) => s.name === name);
}

/**
 * The columns a stream's records carry: the table's, then those schema evolution gives it
 * under the served contract (`protocol-contract.ts`), as a sync would add them. The one place
 * the catalogs, SCHEMA messages and records learn a table's columns.
 */
export function streamColumns(stream: ProtocolStream, evolution: RunEvolution): readonly ColumnSpec[] {
  return evolution.table(stream.table).columns;
}

/** JSON Schema of one column's values (a timestamp as Airbyte's `timestamp_with_timezone`); json: below. */
const COLUMN_SCHEMAS: Readonly<Record<Exclude<ColumnType, 'json'>, { type: string; [keyword: string]: unknown }>> = {
  string: { type: 'string' },
  int64: { type: 'integer' },
  float64: { type: 'number' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'string', format: 'date-time', airbyte_type: 'timestamp_with_timezone' },
};

/** A json column whose values may be any JSON value (no declared type). */
const ANY_JSON: readonly JsonValueType[] = ['object', 'array', 'string', 'number', 'boolean'];

/**
 * One column's property. Every property is typed, as the Singer targets and Airbyte destinations
 * that map a field to a column by its `type` need (docs/protocols.md#records): a json column as
 * the JSON types it holds (`_raw` an object, `mention_spans` an array, an evolved one as its
 * declared union) with null.
 */
function columnSchema(column: ColumnSpec, key: boolean): Record<string, unknown> {
  if (column.type === 'json') return { type: [...(column.jsonTypes ?? ANY_JSON), 'null'] };
  const schema = COLUMN_SCHEMAS[column.type];
  return key ? schema : { ...schema, type: [schema.type, 'null'] };
}

/**
 * The JSON Schema of a stream's records. Every column but the key may be null: a website's
 * removal record carries its id and `_removed_at` only (docs/protocols.md#deletes).
 */
export function recordSchema(stream: ProtocolStream, evolution: RunEvolution): Record<string, unknown> {
  const key = new Set<string>(stream.table.primaryKey);
  const properties = Object.fromEntries(
    streamColumns(stream, evolution).map((column) => [
      column.name,
      { ...columnSchema(column, key.has(column.name)), description: column.description },
    ]),
  );
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    description: stream.table.description,
    properties,
    required: [...key],
  };
}
