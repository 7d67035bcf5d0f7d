/**
 * A destination defined outside `connectors/`, added by the files
 * docs/architecture.md#adding-a-destination lists (`toy-config.ts` is its config schema, the
 * test's `WITH_TOY` its registry line). It stores rows in DuckDB files (the engine tests' fake)
 * under its own type, flush sizing, dialect and names.
 */
import { describeDestination } from '../../../connectors/descriptor.ts';
import { TOY_FLUSH_SIZING, type ToyConfig, toyConfigSchema } from './toy-config.ts';
import { TOY_DIALECT } from './toy-dialect.ts';

export const toyDestination = describeDestination<ToyConfig>({
  type: 'toy',
  name: 'Toy',
  configSchema: toyConfigSchema,
  secrets: [{ key: 'token', in: 'value', fix: 'put it in an environment variable and write token: ${TOY_TOKEN}' }],
  withAbsolutePaths: (config, resolve) => ({ ...config, folder: resolve(config.folder) }),
  flushSizing: TOY_FLUSH_SIZING,
  dialect: TOY_DIALECT,
  tableDataset: (config, table) => ({ namespace: `toy://${config.folder}`, name: `${config.schema}.${table}` }),
  async load() {
    const { createToyDestination, openToyQuery } = await import('./index.ts');
    return { createDestination: createToyDestination, openQueryRole: openToyQuery };
  },
});
