/** Rows as the driver returns them (upper-case keys) in their logical form (contract names and JS types). */
import type { Row, TableSpec } from '../../src/destination/table-spec.ts';
import type { SnowflakeRow } from './snowflake-client.ts';
import { fromDriverValue } from './snowflake-types.ts';

export function decodeRow(table: TableSpec, row: SnowflakeRow): Row {
  return Object.fromEntries(table.columns.map((c) => [c.name, fromDriverValue(c.type, row[c.name.toUpperCase()])]));
}
