/** The toy's query role: DuckDB's, on the toy's file (`aivis query`, `import-prompts --from-query`). */
import { openDuckdbQuery } from '../../../connectors/duckdb/index.ts';
import type { DestinationDeps } from '../../../connectors/registry.ts';
import type { QueryRole } from '../../../src/destination/read-only-query.ts';
import type { ToyConfig } from './toy-config.ts';
import { toyFile } from './toy-destination.ts';

export function openToyQuery(config: ToyConfig, deps: DestinationDeps): Promise<QueryRole> {
  return openDuckdbQuery({ type: 'duckdb', path: toyFile(config), schema: config.schema }, deps.besideDestination);
}
