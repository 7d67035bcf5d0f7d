/** Test wiring for the Snowflake stand-in: a started stand-in and a matching connector config. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SnowflakeConfig } from '../../../schemas/destinations/snowflake.ts';
import { startSnowflakeStandIn, type SnowflakeStandIn } from './snowflake-stand-in.ts';

export const LOADER = { name: 'AIVIS_LOADER', password: 'loader-secret-pw' } as const;
export const READER = { name: 'AIVIS_READER', password: 'reader-secret-pw' } as const;
export const DATABASE = 'ANALYTICS';
export const WAREHOUSE = 'LOADING';

/** An encrypted key pair as `openssl genrsa | openssl pkcs8 -v2 aes256` would write it. */
export function keyPairFiles(passphrase: string): { privateKeyFile: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase },
  });
  const privateKeyFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'aivis-sf-key-')), 'rsa_key.p8');
  writeFileSync(privateKeyFile, privateKey, { mode: 0o600 });
  return { privateKeyFile, publicKeyPem: publicKey };
}

/** A running stand-in with the tests' usual account (users, database, warehouse, roles). */
export interface StandInSetup {
  readonly standIn: SnowflakeStandIn;
  /** A password config for `schema`, as a user would write it. */
  config(schema: string, overrides?: Partial<SnowflakeConfig>): SnowflakeConfig;
}

export async function startStandIn(
  extraUsers: { name: string; publicKeyPem?: string; password?: string }[] = [],
  extraDatabases: readonly string[] = [],
): Promise<StandInSetup> {
  const standIn = await startSnowflakeStandIn({
    users: [LOADER, READER, ...extraUsers],
    databases: [DATABASE, ...extraDatabases],
    warehouses: [WAREHOUSE],
    readOnlyRoles: ['AIVIS_READER_ROLE'],
    noViewRoles: ['AIVIS_TABLES_ONLY_ROLE'],
  });
  return {
    standIn,
    config: (schema, overrides = {}) => ({
      type: 'snowflake',
      account: 'aivis-test',
      username: LOADER.name.toLowerCase(),
      password: LOADER.password,
      warehouse: WAREHOUSE.toLowerCase(),
      database: DATABASE.toLowerCase(),
      schema,
      role: 'AIVIS_LOADER_ROLE',
      access_url: standIn.url,
      ...overrides,
    }),
  };
}

/**
 * The config file a user would write for `config`, against the sandbox at `baseUrl`. Secrets
 * are `${VAR}` references (the loader refuses them as text): `AIVIS_E2E_API_KEY`, and
 * `AIVIS_E2E_SNOWFLAKE_PASSWORD` or `AIVIS_E2E_SNOWFLAKE_PASSPHRASE`.
 */
export function configYaml(baseUrl: string, config: SnowflakeConfig): string {
  const auth = config.private_key_file
    ? [
        `  private_key_file: ${config.private_key_file}`,
        ...(config.private_key_passphrase ? ['  private_key_passphrase: ${AIVIS_E2E_SNOWFLAKE_PASSPHRASE}'] : []),
      ]
    : ['  password: ${AIVIS_E2E_SNOWFLAKE_PASSWORD}'];
  return [
    'source:',
    `  base_url: ${baseUrl}`,
    '  api_key: ${AIVIS_E2E_API_KEY}',
    '  requests_per_minute: 6000',
    'destination:',
    '  type: snowflake',
    `  account: ${config.account}`,
    `  username: ${config.username}`,
    ...auth,
    `  warehouse: ${config.warehouse}`,
    `  database: ${config.database}`,
    `  schema: ${config.schema}`,
    ...(config.role ? [`  role: ${config.role}`] : []),
    `  access_url: ${config.access_url}`,
    '',
  ].join('\n');
}
