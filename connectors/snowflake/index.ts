/** The Snowflake destination (docs/architecture.md#destinations). The driver loads only when `open()` runs. */
export { createSnowflakeDestination, type SnowflakeDeps } from './snowflake-destination.ts';
export { openSnowflakeQuery } from './snowflake-query.ts';
