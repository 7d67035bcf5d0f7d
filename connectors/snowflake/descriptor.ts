/** The Snowflake destination as the core sees it (connectors/descriptor.ts); its driver loads only when a destination opens. */
import { type SnowflakeConfig, snowflakeConfigSchema } from '../../schemas/destinations/snowflake.ts';
import { storedName } from '../../schemas/snowflake-names.ts';
import { describeDestination } from '../descriptor.ts';
import { SNOWFLAKE_FLUSH_SIZING } from './snowflake-config.ts';
import { SNOWFLAKE_DIALECT } from './snowflake-dialect.ts';

export const snowflakeDestination = describeDestination<SnowflakeConfig>({
  type: 'snowflake',
  name: 'Snowflake',
  configSchema: snowflakeConfigSchema,
  secrets: [
    {
      key: 'password',
      in: 'value',
      fix: 'put it in an environment variable and write password: ${SNOWFLAKE_PASSWORD}',
    },
    {
      key: 'private_key_passphrase',
      in: 'value',
      fix: 'put it in an environment variable and write private_key_passphrase: ${SNOWFLAKE_PRIVATE_KEY_PASSPHRASE}',
    },
  ],
  withAbsolutePaths: (config, resolve) =>
    config.private_key_file ? { ...config, private_key_file: resolve(config.private_key_file) } : config,
  flushSizing: SNOWFLAKE_FLUSH_SIZING,
  dialect: SNOWFLAKE_DIALECT,
  // The names Snowflake stores: a quoted database or schema exactly, any other upper-case.
  tableDataset: (config, table) => ({
    namespace: `snowflake://${config.account.toLowerCase()}`,
    name: [config.database, config.schema, table].map(storedName).join('.'),
  }),
  async load() {
    const { createSnowflakeDestination, openSnowflakeQuery } = await import('./index.ts');
    return { createDestination: createSnowflakeDestination, openQueryRole: openSnowflakeQuery };
  },
});
