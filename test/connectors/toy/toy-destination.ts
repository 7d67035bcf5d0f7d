/**
 * The toy connector: DuckDB (the engine tests' fake) in a file of its folder, under the toy's
 * type and flush sizing, recording the rows of each commit per table so the test sees how the
 * engine flushed.
 */
import path from 'node:path';
import { createDuckdbDestination } from '../../../connectors/duckdb/index.ts';
import type { DestinationDeps } from '../../../connectors/registry.ts';
import type { Destination, TableRows } from '../../../src/destination/destination.ts';
import { TOY_FLUSH_SIZING, type ToyConfig } from './toy-config.ts';

export interface ToyDestination extends Destination {
  /** Per commit, the rows it carried per table (tables without rows left out). */
  readonly commits: Readonly<Record<string, number>>[];
}

/** Where the toy keeps a schema's rows: one DuckDB file per schema in its folder. */
export function toyFile(config: ToyConfig): string {
  return path.join(config.folder, `${config.schema}.duckdb`);
}

export function createToyDestination(config: ToyConfig, deps: DestinationDeps): ToyDestination {
  const inner = createDuckdbDestination({ type: 'duckdb', path: toyFile(config), schema: config.schema }, deps);
  const commits: Record<string, number>[] = [];
  return {
    ...inner,
    type: 'toy',
    capabilities: { transactional: true, ...TOY_FLUSH_SIZING },
    namespace: { database: config.folder, schema: config.schema },
    commits,
    commit(parts: readonly TableRows[]) {
      commits.push(
        Object.fromEntries(parts.filter((p) => p.rows.length > 0).map((p) => [p.table.name, p.rows.length])),
      );
      return inner.commit(parts);
    },
  };
}
