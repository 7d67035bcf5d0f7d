/** The BigQuery destination as the core sees it (connectors/descriptor.ts); its SDK loads only when a destination opens. */
import { type BigqueryConfig, bigqueryConfigSchema } from '../../schemas/destinations/bigquery.ts';
import { describeDestination } from '../descriptor.ts';
import { BIGQUERY_FLUSH_SIZING } from './bigquery-config.ts';
import { BIGQUERY_DIALECT } from './bigquery-dialect.ts';

export const bigqueryDestination = describeDestination<BigqueryConfig>({
  type: 'bigquery',
  name: 'BigQuery',
  configSchema: bigqueryConfigSchema,
  secrets: [],
  withAbsolutePaths: (config, resolve) =>
    config.key_file ? { ...config, key_file: resolve(config.key_file) } : config,
  flushSizing: BIGQUERY_FLUSH_SIZING,
  dialect: BIGQUERY_DIALECT,
  tableDataset: (config, table) => ({ namespace: 'bigquery', name: `${config.project}.${config.dataset}.${table}` }),
  async load() {
    const { createBigqueryDestination, openBigqueryQuery } = await import('./index.ts');
    return { createDestination: createBigqueryDestination, openQueryRole: openBigqueryQuery };
  },
});
