/** The DuckDB destination as the core sees it (connectors/descriptor.ts); the engine loads only when a destination opens. */
import { type DuckdbConfig, duckdbConfigSchema } from '../../schemas/destinations/duckdb.ts';
import { describeDestination } from '../descriptor.ts';
import { DUCKDB_FLUSH_SIZING } from './duckdb-config.ts';
import { DUCKDB_DIALECT } from './duckdb-dialect.ts';

export const duckdbDestination = describeDestination<DuckdbConfig>({
  type: 'duckdb',
  name: 'DuckDB',
  configSchema: duckdbConfigSchema,
  secrets: [],
  // `:memory:` is no file.
  withAbsolutePaths: (config, resolve) => ({
    ...config,
    ...(config.path === ':memory:' ? {} : { path: resolve(config.path) }),
    ...(config.temp_directory ? { temp_directory: resolve(config.temp_directory) } : {}),
  }),
  flushSizing: DUCKDB_FLUSH_SIZING,
  dialect: DUCKDB_DIALECT,
  tableDataset: (config, table) => ({ namespace: `duckdb://${config.path}`, name: `${config.schema}.${table}` }),
  async load() {
    const { createDuckdbDestination, openDuckdbQuery } = await import('./index.ts');
    return {
      createDestination: createDuckdbDestination,
      openQueryRole: (config, deps) => openDuckdbQuery(config, deps.besideDestination),
    };
  },
});
