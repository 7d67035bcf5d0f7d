/**
 * The toy's SQL dialect (what `connectors/<name>/<name>-dialect.ts` is for a real one): DuckDB's,
 * since the toy keeps its rows in DuckDB, with type names of its own, which docs/tables.md shows.
 */
import { DUCKDB_DIALECT } from '../../../connectors/duckdb/duckdb-dialect.ts';
import type { SqlDialect } from '../../../src/destination/sql-dialect.ts';

export const TOY_DIALECT: SqlDialect = { ...DUCKDB_DIALECT, typeName: (type) => `toy_${type}` };
