/** The Snowflake destination (design §10). The driver loads only when `open()` runs. */
export { createSnowflakeDestination, type SnowflakeDeps } from './snowflake-destination.ts';
