/** The Postgres destination as the core sees it (connectors/descriptor.ts); `pg` loads only when a destination opens. */
import { type PostgresConfig, postgresConfigSchema } from '../../schemas/destinations/postgres.ts';
import { describeDestination } from '../descriptor.ts';
import { POSTGRES_FLUSH_SIZING } from './postgres-config.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';

export const postgresDestination = describeDestination<PostgresConfig>({
  type: 'postgres',
  name: 'Postgres',
  configSchema: postgresConfigSchema,
  secrets: [
    { key: 'url', in: 'url', fix: 'put the whole URL in an environment variable and write url: ${DATABASE_URL}' },
  ],
  withAbsolutePaths: (config) => config,
  flushSizing: POSTGRES_FLUSH_SIZING,
  dialect: POSTGRES_DIALECT,
  tableDataset(config, table) {
    const url = new URL(config.url);
    const database =
      decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
    return {
      namespace: `postgres://${url.hostname}:${url.port || '5432'}`,
      name: `${database}.${config.schema}.${table}`,
    };
  },
  async load() {
    const { createPostgresDestination, openPostgresQuery } = await import('./index.ts');
    return { createDestination: createPostgresDestination, openQueryRole: openPostgresQuery };
  },
});
