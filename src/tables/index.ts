export * from './analytics.ts';
export {
  completenessTable,
  contractsTable,
  coverageTable,
  ENGINE_TABLES,
  metricVersionsTable,
  rejectedTable,
  runsTable,
  stateTable,
} from '../destination/engine-tables.ts';
export * from './evidence.ts';
export * from './websites.ts';
export * from './views.ts';
