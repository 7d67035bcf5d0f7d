/**
 * The DuckDB destination (the embedded default). Importing this file loads no engine:
 * `@duckdb/node-api` is imported by `open()`.
 */
export { createDuckdbDestination } from './duckdb-destination.ts';
export { openDuckdbQuery } from './duckdb-query.ts';
