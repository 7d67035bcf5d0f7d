/** Valid configs: each destination minimal and full, defaults, paths, `${VAR}` rules. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { writeConfig, yaml } from './config-files.ts';

const env = { AIVIS_API_KEY: 'sk_test_valid_key_1', DATABASE_URL: 'postgres://aivis:pg-secret-1@db:5432/warehouse' };

describe('loadConfig: minimal config per destination', () => {
  it('applies every default when only the source is given (DuckDB beside the config)', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
    `);
    const dir = path.dirname(file);
    const loaded = await loadConfig(file, env);
    const source = {
      base_url: 'https://api.example.com',
      api_key: 'sk_test_valid_key_1',
      requests_per_minute: 90,
      timeout_seconds: 60,
      max_retries: 6,
      retry_budget_seconds: 600,
    };
    expect(loaded).toEqual({
      path: file,
      namesDestination: false,
      config: {
        source,
        destination: { type: 'duckdb', path: path.join(dir, 'aivis_data.duckdb'), schema: 'aivis' },
        schema_evolution: 'evolve',
        schema_evolution_max_columns: 200,
        state: { store: 'destination', path: path.join(dir, 'aivis-state.json') },
      },
      workspaces: [{ name: 'default', source, apiKey: 'sk_test_valid_key_1' }],
    });
  });

  it('postgres: url from the environment, schema defaults to aivis', async () => {
    const file = await writeConfig(yaml`
      source: { base_url: https://api.example.com, api_key: "\${AIVIS_API_KEY}" }
      destination:
        type: postgres
        url: \${DATABASE_URL}
    `);
    const { config, namesDestination } = await loadConfig(file, env);
    expect(config.destination).toEqual({ type: 'postgres', url: env.DATABASE_URL, schema: 'aivis' });
    expect(namesDestination).toBe(true);
  });

  it('bigquery: project only; dataset and location default, ADC when no key_file', async () => {
    const file = await writeConfig(yaml`
      source: { base_url: https://api.example.com, api_key: "\${AIVIS_API_KEY}" }
      destination: { type: bigquery, project: my-gcp-project }
    `);
    const { config } = await loadConfig(file, env);
    expect(config.destination).toEqual({
      type: 'bigquery',
      project: 'my-gcp-project',
      dataset: 'aivis',
      location: 'US',
    });
  });

  it('snowflake: password from the environment, schema defaults to AIVIS', async () => {
    const file = await writeConfig(yaml`
      source: { base_url: https://api.example.com, api_key: "\${AIVIS_API_KEY}" }
      destination:
        type: snowflake
        account: xy12345.eu-west-1
        username: AIVIS_LOADER
        password: \${SNOWFLAKE_PASSWORD}
        warehouse: LOAD_WH
        database: ANALYTICS
    `);
    const { config } = await loadConfig(file, { ...env, SNOWFLAKE_PASSWORD: 'sf-pass-123' });
    expect(config.destination).toEqual({
      type: 'snowflake',
      account: 'xy12345.eu-west-1',
      username: 'AIVIS_LOADER',
      password: 'sf-pass-123',
      warehouse: 'LOAD_WH',
      database: 'ANALYTICS',
      schema: 'AIVIS',
    });
  });
});

describe('loadConfig: full config per destination', () => {
  const fullSource = yaml`
    source:
      base_url: http://127.0.0.1:8080
      api_key_file: secrets/api-key
      requests_per_minute: 120
      timeout_seconds: 30
      max_retries: 3
    streams:
      websites: {}
      analytics: { include: [providers] }
      analytics_history: {}
      mentions: { providers: [chatgpt, gemini] }
      citations: {}
    websites:
      include: [web_123, web_abc-9]
    state:
      store: file
      path: state/aivis-state.json
  `;

  async function loadFull(destination: string, extraEnv: NodeJS.ProcessEnv = {}) {
    const file = await writeConfig(fullSource + destination);
    const dir = path.dirname(file);
    await mkdir(path.join(dir, 'secrets'));
    await writeFile(path.join(dir, 'secrets', 'api-key'), '  sk_test_from_file_42\n', { mode: 0o600 });
    return { dir, loaded: await loadConfig(file, { ...env, ...extraEnv }) };
  }

  it('reads the key file (trimmed) and resolves every relative path against the config folder', async () => {
    const { dir, loaded } = await loadFull(yaml`
      destination: { type: duckdb, path: data/warehouse.duckdb, schema: raw_aivis }
    `);
    expect(loaded.workspaces[0]?.apiKey).toBe('sk_test_from_file_42');
    expect(loaded.config).toEqual({
      source: {
        base_url: 'http://127.0.0.1:8080',
        api_key_file: path.join(dir, 'secrets', 'api-key'),
        requests_per_minute: 120,
        timeout_seconds: 30,
        max_retries: 3,
        retry_budget_seconds: 600,
      },
      destination: { type: 'duckdb', path: path.join(dir, 'data', 'warehouse.duckdb'), schema: 'raw_aivis' },
      streams: {
        websites: {},
        analytics: { include: ['providers'] },
        analytics_history: {},
        mentions: { providers: ['chatgpt', 'gemini'] },
        citations: {},
      },
      schema_evolution: 'evolve',
      schema_evolution_max_columns: 200,
      websites: { include: ['web_123', 'web_abc-9'] },
      state: { store: 'file', path: path.join(dir, 'state', 'aivis-state.json') },
    });
  });

  it('postgres with every key', async () => {
    const { loaded } = await loadFull(yaml`
      destination: { type: postgres, url: "\${DATABASE_URL}", schema: aivis_raw }
    `);
    expect(loaded.config.destination).toEqual({ type: 'postgres', url: env.DATABASE_URL, schema: 'aivis_raw' });
  });

  it('bigquery with every key; key_file resolved, absolute paths kept', async () => {
    const { dir, loaded } = await loadFull(yaml`
      destination:
        type: bigquery
        project: my-gcp-project
        dataset: aivis_eu
        location: EU
        key_file: ./sa.json
        api_endpoint: http://127.0.0.1:9050
    `);
    expect(loaded.config.destination).toEqual({
      type: 'bigquery',
      project: 'my-gcp-project',
      dataset: 'aivis_eu',
      location: 'EU',
      key_file: path.join(dir, 'sa.json'),
      api_endpoint: 'http://127.0.0.1:9050',
    });
  });

  it('snowflake with key-pair auth and every key', async () => {
    const { loaded } = await loadFull(
      yaml`
        destination:
          type: snowflake
          account: xy12345
          username: AIVIS_LOADER
          private_key_file: /var/run/secrets/snowflake/rsa_key.p8
          private_key_passphrase: \${SNOWFLAKE_PRIVATE_KEY_PASSPHRASE}
          warehouse: LOAD_WH
          database: ANALYTICS
          schema: AIVIS_RAW
          role: LOADER
          access_url: http://127.0.0.1:9060
      `,
      { SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: 'pass-phrase-7' },
    );
    expect(loaded.config.destination).toEqual({
      type: 'snowflake',
      account: 'xy12345',
      username: 'AIVIS_LOADER',
      private_key_file: '/var/run/secrets/snowflake/rsa_key.p8',
      private_key_passphrase: 'pass-phrase-7',
      warehouse: 'LOAD_WH',
      database: 'ANALYTICS',
      schema: 'AIVIS_RAW',
      role: 'LOADER',
      access_url: 'http://127.0.0.1:9060',
    });
  });
});

describe('loadConfig: values from the environment', () => {
  it('substitutes inside text, keeps $${ as a literal ${, and types unquoted numbers', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: http://\${API_HOST}:8080
        api_key: \${AIVIS_API_KEY}
        requests_per_minute: \${AIVIS_RPM}
      destination:
        type: duckdb
        path: ./price-$\${literal}.duckdb
    `);
    const { config } = await loadConfig(file, { ...env, API_HOST: '127.0.0.1', AIVIS_RPM: '300' });
    expect(config.source?.base_url).toBe('http://127.0.0.1:8080');
    expect(config.source?.requests_per_minute).toBe(300);
    expect(config.destination).toMatchObject({ path: path.join(path.dirname(file), 'price-${literal}.duckdb') });
  });

  it('takes `streams:` entries without settings as default settings', async () => {
    const file = await writeConfig(yaml`
      source: { base_url: https://api.example.com, api_key: "\${AIVIS_API_KEY}" }
      streams:
        websites:
        mentions:
    `);
    const { config } = await loadConfig(file, env);
    expect(config.streams).toEqual({ websites: {}, mentions: {} });
  });

  it('keeps DuckDB :memory: as is', async () => {
    const file = await writeConfig(yaml`
      source: { base_url: https://api.example.com, api_key: "\${AIVIS_API_KEY}" }
      destination: { type: duckdb, path: ":memory:" }
    `);
    const { config } = await loadConfig(file, env);
    expect(config.destination).toEqual({ type: 'duckdb', path: ':memory:', schema: 'aivis' });
  });
});
