/**
 * `aivis dbt-sources` as a user runs it, for each destination: the file validates against
 * dbt's published JSON Schema (draft-07, /work/shared/dbt-jsonschema, unchanged), names the
 * destination's database and schema, lists every table and view a sync writes with the specs'
 * descriptions, tests each key, and checks feed freshness from `_aivis_completeness`. On DuckDB
 * after a real sync, its SQL (freshness query, composite key expressions) runs as dbt would
 * render it.
 *
 * The command reads `_aivis_contracts` for the columns a kept served contract adds, so every
 * destination here is on loopback: the BigQuery and Snowflake stand-ins (reachable, nothing
 * kept: the bundled columns, silently), Postgres on a closed port (unreachable: the bundled
 * columns and one warning).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { syncTables } from '../../src/sync/run-sync.ts';
import { VIEWS } from '../../src/tables/index.ts';
import { configSchemaOf } from '../../connectors/registry.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { writeAdcFile } from '../stand-ins/bigquery/fake-auth.ts';
import { LOADER, startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { runCli } from '../support/cli-process.ts';
import { closedPort } from '../support/closed-port.ts';
import { jsonLines } from '../support/json-lines.ts';

type Json = Record<string, any>;

const dbtSchema = JSON.parse(readFileSync('/work/shared/dbt-jsonschema/dbt_yml_files-latest.json', 'utf8')) as object;
/** ajv's `Ajv` is its draft-07 validator, the dialect of dbt's schema. */
const validate = new Ajv({ strict: false, allErrors: true }).compile(dbtSchema);

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-dbt-'));
let sandbox: Sandbox;
let bigquery: BigqueryStandIn;
let snowflake: StandInSetup;
let adc: string;
let unreachable: number;
beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 5,
    websites: 3,
    requestsPerMinute: 0,
    mentionsPerAnalysis: 5,
    citationsPerAnalysis: 2,
  });
  bigquery = await startBigqueryStandIn();
  snowflake = await startStandIn();
  adc = await writeAdcFile(dir, bigquery.url);
  unreachable = await closedPort();
});
afterAll(async () => {
  await sandbox.close();
  await bigquery?.close();
  await snowflake?.standIn.close();
  rmSync(dir, { recursive: true, force: true });
});

const SOURCE = ['source:', '  base_url: ${BASE_URL}', '  api_key: ${AIVIS_API_KEY}', '  requests_per_minute: 100'];
const ENV = {
  AIVIS_API_KEY: 'aivis_test_key_0123456789',
  SF_PASSWORD: LOADER.password,
};

/** Each destination's config, its database and schema as dbt names them, and what stderr says. */
const DESTINATIONS: Record<
  string,
  { lines: () => string[]; database: () => string; schema: string; stderr: () => Record<string, unknown>[] }
> = {
  duckdb: {
    lines: () => ['destination:', '  type: duckdb', '  path: ./warehouse.duckdb', '  schema: aivis'],
    database: () => 'warehouse',
    schema: 'aivis',
    stderr: () => [],
  },
  postgres: {
    lines: () => ['destination:', '  type: postgres', '  url: ${PG_URL}', '  schema: analytics'],
    database: () => 'warehouse',
    schema: 'analytics',
    stderr: () => [
      {
        ts: expect.any(String),
        level: 'warn',
        msg: `showing the bundled contract's columns: cannot read _aivis_contracts: cannot reach Postgres at 127.0.0.1:${unreachable}: connection refused`,
        destination: 'postgres',
      },
    ],
  },
  bigquery: {
    lines: () => [
      'destination:',
      '  type: bigquery',
      `  project: ${bigquery.projectId}`,
      '  dataset: aivis',
      '  location: EU',
      `  api_endpoint: ${bigquery.url}`,
    ],
    database: () => bigquery.projectId,
    schema: 'aivis',
    stderr: () => [],
  },
  snowflake: {
    lines: () => [
      'destination:',
      '  type: snowflake',
      '  account: aivis-test',
      `  username: ${LOADER.name}`,
      '  password: ${SF_PASSWORD}',
      '  warehouse: LOADING',
      '  database: ANALYTICS',
      '  schema: AIVIS',
      '  role: AIVIS_LOADER_ROLE',
      `  access_url: ${snowflake.standIn.url}`,
    ],
    database: () => 'ANALYTICS',
    schema: 'AIVIS',
    stderr: () => [],
  },
};

let configs = 0;
function writeConfig(lines: readonly string[]): string {
  const file = path.join(dir, `c${++configs}.yaml`);
  writeFileSync(file, [...lines, ''].join('\n'));
  return file;
}

async function dbtSources(
  config: string,
  extra: string[] = [],
): Promise<{ code: number | null; file: Json; stdout: string; stderr: string }> {
  const result = await runCli(['dbt-sources', '--config', config, ...extra], {
    ...ENV,
    BASE_URL: sandbox.baseUrl,
    PG_URL: `postgres://loader:pg-secret-5f3a9c@127.0.0.1:${unreachable}/warehouse`,
    GOOGLE_APPLICATION_CREDENTIALS: adc,
  }).done;
  return { ...result, file: result.code === 0 ? (parse(result.stdout) as Json) : {} };
}

/** The tables and views a sync of every stream writes, by name. */
const expectedObjects = () => {
  const tables = syncTables(configSchemaOf().parse({ source: { base_url: 'http://127.0.0.1', api_key: 'k' } }));
  return new Map<
    string,
    { description: string; columns: readonly { name: string; description: string }[]; key: readonly string[] }
  >([
    ...tables.map((t) => [t.name, { description: t.description, columns: t.columns, key: t.primaryKey }] as const),
    ...VIEWS.map((v) => [v.name, { description: v.description, columns: v.columns, key: v.key }] as const),
  ]);
};

describe('aivis dbt-sources', () => {
  it.each(Object.keys(DESTINATIONS))('prints a property file for %s that dbt’s JSON Schema accepts', async (type) => {
    const destination = DESTINATIONS[type]!;
    const { code, file, stdout, stderr } = await dbtSources(writeConfig([...SOURCE, ...destination.lines()]));
    expect(jsonLines(stderr)).toEqual(destination.stderr());
    expect(code).toBe(0);
    // The config's secrets stay out of the printed file.
    for (const secret of [ENV.AIVIS_API_KEY, 'pg-secret-5f3a9c', ENV.SF_PASSWORD]) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    expect(file.version).toBe(2);
    const [source] = file.sources as Json[];
    expect(source).toMatchObject({
      name: 'aivis',
      database: destination.database(),
      schema: destination.schema,
      loader: 'aivis',
    });

    const expected = expectedObjects();
    const tables = source!.tables as Json[];
    expect(tables.map((t) => t.name).sort()).toEqual([...expected.keys()].sort());
    for (const table of tables) {
      const spec = expected.get(table.name)!;
      expect(table.description).toBe(spec.description);
      expect(table.columns.map((c: Json) => [c.name, c.description])).toEqual(
        spec.columns.map((c) => [c.name, c.description]),
      );
      const tested = (name: string) => table.columns.find((c: Json) => c.name === name).data_tests;
      if (spec.key.length === 1) expect(tested(spec.key[0]!), `${table.name} key`).toEqual(['unique', 'not_null']);
      else {
        for (const k of spec.key) expect(tested(k), `${table.name}.${k}`).toEqual(['not_null']);
        const text = { postgres: 'TEXT', duckdb: 'VARCHAR', bigquery: 'STRING', snowflake: 'VARCHAR' }[type];
        expect(table.data_tests).toEqual([
          { unique: { column_name: spec.key.map((k) => `CAST(${k} AS ${text})`).join(` || '|' || `) } },
        ]);
      }
    }
    const fresh = tables.filter((t) => t.freshness !== undefined).map((t) => t.name);
    expect(fresh.sort()).toEqual(['analytics_history', 'citations', 'mentions']);
    // A scope is a website id, or the id with a scan filter (`web_1?provider=gemini`): its website part is compared.
    const website = type === 'bigquery' ? "split(scope, '?')[offset(0)]" : "split_part(scope, '?', 1)";
    expect(tables.find((t) => t.name === 'mentions')).toMatchObject({
      freshness: { warn_after: { count: 6, period: 'hour' }, error_after: { count: 24, period: 'hour' } },
      config: {
        // A listed website that never completed the stream makes it null: dbt never calls it fresh.
        loaded_at_query: `select case when exists (select 1 from {{ source('aivis', 'websites_current') }} w where w.id not in (select ${website} from {{ source('aivis', '_aivis_completeness') }} where stream = 'mentions')) then null else min(complete_through) end from {{ source('aivis', '_aivis_completeness') }} where stream = 'mentions' and ${website} in (select id from {{ source('aivis', 'websites_current') }})`,
      },
    });
  });

  it("the check is dbt's: a key dbt does not know, or a source without a name, is refused", () => {
    expect(validate({ version: 2, sources: [{ name: 'aivis', tables: [{ name: 'x', primary_key: ['id'] }] }] })).toBe(
      false,
    );
    expect(validate({ version: 2, sources: [{ tables: [] }] })).toBe(false);
  });

  it('with --workspace, freshness counts that workspace only; an unknown one exits 2', async () => {
    const config = writeConfig([
      'sources:',
      '  brand_a: { base_url: "${BASE_URL}", api_key: "${AIVIS_API_KEY}" }',
      '  brand_b: { base_url: "${BASE_URL}", api_key: "${AIVIS_API_KEY}" }',
      ...DESTINATIONS.duckdb!.lines(),
    ]);
    const { code, file } = await dbtSources(config, ['--workspace', 'brand_b']);
    expect(code).toBe(0);
    expect(validate(file)).toBe(true);
    const mentions = (file.sources[0].tables as Json[]).find((t) => t.name === 'mentions')!;
    expect(mentions.config.loaded_at_query).toContain("and coalesce(_workspace, 'default') = 'brand_b'");
    const unknown = await dbtSources(config, ['--workspace', 'brand_c']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('brand_c');
  });

  /** Every stream, mentions read per provider: each provider's scan has its own scope, `web_1?provider=chatgpt`. */
  const PER_PROVIDER = [
    'streams:',
    '  websites: {}',
    '  analytics: {}',
    '  analytics_history: {}',
    '  mentions: { providers: [chatgpt, gemini] }',
    '  citations: {}',
  ];
  it.each([
    ['every provider in one scan', 'warehouse', []],
    ['a scan per provider', 'per_provider', PER_PROVIDER],
  ])(
    "its SQL runs on DuckDB after a sync (%s), as dbt renders it: the freshness query and each composite key's uniqueness",
    async (_, database, streams) => {
      const lines = DESTINATIONS.duckdb!.lines().map((line) =>
        line.replace('./warehouse.duckdb', `./${database}.duckdb`),
      );
      const config = writeConfig([...SOURCE, ...lines, ...streams]);
      const sync = await runCli(['sync', '--config', config], {
        ...ENV,
        AIVIS_API_KEY: sandbox.apiKey,
        BASE_URL: sandbox.baseUrl,
      }).done;
      expect(sync.stderr.split('\n').filter((line) => line.includes('"level":"error"'))).toEqual([]);
      expect(sync.code).toBe(0);
      const { file } = await dbtSources(config);
      const render = (sql: string) => sql.replace(/\{\{ source\('aivis', '(\w+)'\) \}\}/g, 'aivis.$1');
      const instance = await DuckDBInstance.create(path.join(dir, `${database}.duckdb`));
      const connection = await instance.connect();
      try {
        const run = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS();
        for (const table of file.sources[0].tables as Json[]) {
          if (table.config?.loaded_at_query) {
            const [row] = await run(render(table.config.loaded_at_query));
            expect(Object.values(row!)[0], `${table.name} freshness`).not.toBeNull();
          }
          for (const test of table.data_tests ?? []) {
            const [row] = await run(
              `select count(*) - count(distinct ${test.unique.column_name}) as duplicates from aivis.${table.name}`,
            );
            expect(Number(row!.duplicates), `${table.name} key`).toBe(0);
          }
        }
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
  );
});
