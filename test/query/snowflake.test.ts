/**
 * `aivis query` on Snowflake: the real driver against the stand-in. Snowflake compiles the
 * statement first without running it (`describeOnly`), which refuses several statements
 * (000008, MULTI_STATEMENT_COUNT being 1) and names an unknown object before anything runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectSnowflake, type SnowflakeClient } from '../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions } from '../../connectors/snowflake/snowflake-config.ts';
import { configYaml, LOADER, startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { describeQuery } from './query-suite.ts';

let dir: string;
let setup: StandInSetup;
/** The fixture's own session, beside aivis's (as an analyst's worksheet would be). */
let worksheet: SnowflakeClient;

describeQuery('Snowflake', {
  table: 'aivis_q.query_fixture',
  column: (name) => name.toUpperCase(),
  async setup() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-query-sf-'));
    setup = await startStandIn();
    worksheet = await connectSnowflake(connectionOptions(setup.config('aivis_q')), 'fixture');
    await worksheet.execute('CREATE SCHEMA IF NOT EXISTS ANALYTICS.AIVIS_Q');
    await worksheet.execute(
      'CREATE TABLE ANALYTICS.AIVIS_Q.QUERY_FIXTURE (ID NUMBER(38,0), BIG NUMBER(38,0), NAME TEXT, PAYLOAD VARIANT, OK BOOLEAN)',
    );
    await worksheet.execute(
      `INSERT INTO ANALYTICS.AIVIS_Q.QUERY_FIXTURE SELECT 1, 9007199254740993, 'comma, "quote"', PARSE_JSON('{"k":[1,2]}'), TRUE`,
    );
    await worksheet.execute(
      'INSERT INTO ANALYTICS.AIVIS_Q.QUERY_FIXTURE SELECT 2, 9007199254740991, NULL, NULL, FALSE',
    );
    const config = path.join(dir, 'aivis.yaml');
    // The API key's variable stays unset: query needs none.
    await writeFile(config, configYaml('http://127.0.0.1:9/public/v2', setup.config('aivis_q')));
    return { config, env: { AIVIS_E2E_SNOWFLAKE_PASSWORD: LOADER.password } };
  },
  async teardown() {
    await worksheet?.close();
    await setup?.standIn.close();
    await rm(dir, { recursive: true, force: true });
  },
  rowCount: async () =>
    Number((await worksheet.execute('SELECT COUNT(*) AS N FROM ANALYTICS.AIVIS_Q.QUERY_FIXTURE'))[0]!.N),
  tableExists: async (name) =>
    (
      await worksheet.execute(
        `SELECT 1 FROM ANALYTICS.INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'AIVIS_Q' AND TABLE_NAME = '${name.toUpperCase()}'`,
      )
    ).length > 0,
  // ARRAY arrives parsed by the driver (its fetchAsString 'JSON' covers VARIANT only).
  arrays: "SELECT ARRAY_CONSTRUCT('a', 'b c') AS tags, ARRAY_CONSTRUCT(1, 2) AS ns",
  engineRefusals: [
    // The leading SELECT passes the keyword check; Snowflake's compile refuses the second statement.
    { sql: `SELECT 1;\nDELETE FROM aivis_q.query_fixture` },
    // Snowflake's WITH ends in a query; its compile refuses a DML after it as a syntax error.
    {
      sql: 'WITH n AS (SELECT 3 AS id) INSERT INTO aivis_q.query_fixture (id) SELECT id FROM n',
      message:
        /^Snowflake cannot run the statement: SQL compilation error: syntax error line 1 at position 27 unexpected 'INSERT'\. \(code 001003, SQL state 42000, query [\w-]+\)$/,
    },
  ],
});
