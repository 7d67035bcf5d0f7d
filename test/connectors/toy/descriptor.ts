/**
 * A destination defined outside `connectors/`, to show that adding one is its folder, its
 * config schema and one registry entry (docs/architecture.md#adding-a-destination). It
 * stores rows in DuckDB in memory (the engine tests' fake) under its own type, flush sizing and names.
 */
import { describeDestination } from '../../../connectors/descriptor.ts';
import { DUCKDB_DIALECT } from '../../../connectors/duckdb/duckdb-dialect.ts';
import { TOY_FLUSH_SIZING, type ToyConfig, toyConfigSchema } from './toy-config.ts';

export const toyDestination = describeDestination<ToyConfig>({
  type: 'toy',
  name: 'Toy',
  configSchema: toyConfigSchema,
  secrets: [{ key: 'token', in: 'value', fix: 'put it in an environment variable and write token: ${TOY_TOKEN}' }],
  withAbsolutePaths: (config, resolve) => ({ ...config, folder: resolve(config.folder) }),
  flushSizing: TOY_FLUSH_SIZING,
  dialect: { ...DUCKDB_DIALECT, typeName: (type) => `toy_${type}` },
  tableDataset: (config, table) => ({ namespace: `toy://${config.folder}`, name: `${config.schema}.${table}` }),
  async load() {
    const { createToyDestination } = await import('./toy-destination.ts');
    return {
      createDestination: createToyDestination,
      openQueryRole: () => Promise.reject(new Error('the toy destination answers no queries')),
    };
  },
});
