/**
 * Adding a destination is its folder, its config schema and one registry entry
 * (docs/architecture.md#adding-a-destination): a toy destination defined here, in the test
 * tree, and added to the registry's list, is parsed, has its secret refused and its file path
 * resolved, is named for lineage and docs/tables.md, and takes a sync flushed by its own sizing.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DESTINATIONS, type DestinationRegistry } from '../../../connectors/registry.ts';
import { buildTablesDoc } from '../../../scripts/tables-doc.ts';
import { createDestination, openQueryRole } from '../../../src/cli/destination-factory.ts';
import { assertReadOnlyStatement } from '../../../src/destination/read-only-query.ts';
import { ApiClient } from '../../../src/client/api-client.ts';
import { loadConfig } from '../../../src/config/load-config.ts';
import { readRows } from '../../../src/destination/queries/read-rows.ts';
import { ConfigError, ExitCode } from '../../../src/errors.ts';
import { tableDataset } from '../../../src/lineage/dataset-names.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { clearSecrets, redact } from '../../../src/log/redact.ts';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.ts';
import { DestinationStateStore } from '../../../src/state/destination-state-store.ts';
import { runSync } from '../../../src/sync/run-sync.ts';
import { analyticsLatestTable, websitesTable } from '../../../src/tables/index.ts';
import { writeConfig, yaml } from '../../config/config-files.ts';
import { toyDestination } from './descriptor.ts';
import type { ToyConfig } from './toy-config.ts';
import type { ToyDestination } from './toy-destination.ts';

/** The registry with the toy's one line added. */
const WITH_TOY: DestinationRegistry = {
  destinations: [...DESTINATIONS.destinations, toyDestination],
  defaultType: DESTINATIONS.defaultType,
};

const TOKEN = 'toy-token-5a4b3c';

const toyConfig = (baseUrl = 'https://api.example.com', token = '${TOY_TOKEN}') => yaml`
  source:
    base_url: ${baseUrl}
    api_key: \${AIVIS_API_KEY}
  destination:
    type: toy
    folder: toy-data
    token: ${token}
`;

/** Loads `text` with `registry`, expecting a config error; returns its message lines. */
async function errorLines(file: string, registry?: DestinationRegistry): Promise<string[]> {
  const env = { AIVIS_API_KEY: 'k', TOY_TOKEN: TOKEN };
  const error = await loadConfig(file, env, silentLogger, 'all', registry).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).exitCode).toBe(ExitCode.Usage);
  return (error as ConfigError).message.split('\n');
}

beforeEach(() => clearSecrets());

describe('a destination added to the registry', () => {
  it('is refused by the registry without it, naming the types there are', async () => {
    const file = await writeConfig(toyConfig());
    expect(await errorLines(file)).toEqual([
      `${file}:5: destination.type must be one of postgres, duckdb, bigquery, snowflake (got "toy")`,
    ]);
  });

  it('parses its block, resolves its file path against the config and registers its secret', async () => {
    const file = await writeConfig(toyConfig());
    const { config } = await loadConfig(file, { AIVIS_API_KEY: 'k', TOY_TOKEN: TOKEN }, silentLogger, 'all', WITH_TOY);
    expect(config.destination).toEqual({
      type: 'toy',
      folder: path.join(path.dirname(file), 'toy-data'),
      token: TOKEN,
      schema: 'aivis',
    });
    expect(redact(`token ${TOKEN}`)).toBe('token [REDACTED]');
  });

  it('refuses its secret written into the file, with its own fix, never printing it', async () => {
    const file = await writeConfig(toyConfig(undefined, TOKEN));
    expect(await errorLines(file, WITH_TOY)).toEqual([
      `${file}:7: destination.token is written into the config file, and secrets are never read from the YAML text: put it in an environment variable and write token: \${TOY_TOKEN}`,
    ]);
    expect(redact(TOKEN)).toBe('[REDACTED]');
  });

  it('names its tables for OpenLineage and its column types in docs/tables.md', async () => {
    const file = await writeConfig(toyConfig());
    const { config } = await loadConfig(file, { AIVIS_API_KEY: 'k', TOY_TOKEN: TOKEN }, silentLogger, 'all', WITH_TOY);
    expect(tableDataset(config.destination, 'websites', WITH_TOY)).toEqual({
      namespace: `toy://${path.join(path.dirname(file), 'toy-data')}`,
      name: 'aivis.websites',
    });
    const doc = buildTablesDoc(WITH_TOY);
    expect(doc).toContain('| column | Postgres | DuckDB | BigQuery | Snowflake | Toy | NULL | description |');
    expect(doc).toContain('| `website_id` (key) | TEXT | VARCHAR | STRING | VARCHAR | toy_string |');
  });
});

describe('a sync through the added destination', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ websites: 4, requestsPerMinute: 0, analysesPerWebsite: 2, mentionsPerAnalysis: 3 });
  });
  afterEach(() => sandbox.close());

  it('loads every listed website, committing each unit on its own as its flush sizing of one row says', async () => {
    const file = await writeConfig(toyConfig(sandbox.baseUrl));
    const { config } = await loadConfig(
      file,
      { AIVIS_API_KEY: sandbox.apiKey, TOY_TOKEN: TOKEN },
      silentLogger,
      'all',
      WITH_TOY,
    );
    mkdirSync((config.destination as ToyConfig).folder);
    const destination = (await createDestination(
      config.destination,
      { logger: silentLogger },
      WITH_TOY,
    )) as ToyDestination;
    expect(destination.type).toBe('toy');
    const client = new ApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      requestsPerMinute: 6000,
      random: () => 0,
    });
    await destination.open();
    try {
      const summary = await runSync({
        config,
        client,
        destination,
        stateStore: new DestinationStateStore(destination),
        logger: silentLogger,
      });
      expect(summary.exitCode).toBe(ExitCode.Success);
      expect(await readRows(destination, websitesTable)).toHaveLength(4);
      // Each website's snapshot is one unit; with a flush of one row, no two share a commit.
      expect(await readRows(destination, analyticsLatestTable)).toHaveLength(4);
    } finally {
      await client.close();
      await destination.close();
    }
    // Its query role reads what the sync wrote (`aivis query`).
    const role = await openQueryRole(config.destination, { logger: silentLogger }, WITH_TOY);
    try {
      const result = await role.run(
        await assertReadOnlyStatement('SELECT count(*) AS n FROM websites', role, 'aivis query'),
        10,
      );
      const pages = [];
      for await (const page of result.pages) pages.push(...page);
      expect(pages).toEqual([[4n]]);
    } finally {
      await role.close();
    }
    const snapshotCommits = destination.commits.filter((commit) => commit.analytics_latest !== undefined);
    expect(snapshotCommits.map((commit) => commit.analytics_latest)).toEqual([1, 1, 1, 1]);
  });
});
