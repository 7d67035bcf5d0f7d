export * from './analytics.ts';
export { ENGINE_TABLES, rejectedTable, runsTable, stateTable } from '../destination/engine-tables.ts';
export * from './evidence.ts';
export * from './websites.ts';
