import type { TableSpec } from '../destination/table-spec.ts';
import { rejectedTable, runsTable, stateTable } from './engine.ts';

export * from './analytics.ts';
export * from './engine.ts';
export * from './evidence.ts';
export * from './websites.ts';

/** Tables every sync needs whatever streams it runs. Which tables each stream writes: `src/streams/registry.ts`. */
export const ENGINE_TABLES: readonly TableSpec[] = [stateTable, runsTable, rejectedTable];
