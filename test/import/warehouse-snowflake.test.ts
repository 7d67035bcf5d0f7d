/**
 * `import-prompts --from-table/--from-query` on Snowflake: the real driver against the stand-in;
 * column names arrive upper-cased and match case-insensitively, ARRAY tags arrive as arrays.
 */
import { connectSnowflake, type SnowflakeClient } from '../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions } from '../../connectors/snowflake/snowflake-config.ts';
import { configYaml, LOADER, startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { describeWarehouseSource } from './warehouse-source-suite.ts';

let setup: StandInSetup;
let worksheet: SnowflakeClient;

describeWarehouseSource('Snowflake', {
  async setup() {
    setup = await startStandIn();
    worksheet = await connectSnowflake(connectionOptions(setup.config('aivis_w')), 'fixture');
    await worksheet.execute('CREATE SCHEMA IF NOT EXISTS ANALYTICS.AIVIS_W');
    await worksheet.execute('USE SCHEMA ANALYTICS.AIVIS_W');
    process.env.AIVIS_E2E_SNOWFLAKE_PASSWORD = LOADER.password;
    const yaml = configYaml('http://127.0.0.1:9', setup.config('aivis_w'));
    return yaml
      .slice(yaml.indexOf('destination:\n') + 'destination:\n'.length)
      .trimEnd()
      .split('\n');
  },
  async teardown() {
    await worksheet?.close();
    await setup?.standIn.close();
  },
  exec: async (sql) => void (await worksheet.execute(sql)),
  column: (name) => name.toUpperCase(),
  types: { text: 'TEXT' },
  arrays: {
    textArray: 'ARRAY',
    tags: (tags) => `ARRAY_CONSTRUCT(${tags.map((t) => `'${t}'`).join(', ')})`,
    integers: 'ARRAY_CONSTRUCT(1, 2)',
  },
  random: 'RANDOM()',
  digests: async (websiteId) =>
    Number(
      (
        await worksheet.execute(
          `SELECT COUNT(DISTINCT TEXT_SHA256) AS N FROM PROMPT_IMPORT_ITEMS WHERE WEBSITE_ID = '${websiteId}' AND TEXT_SHA256 IS NOT NULL`,
        )
      )[0]!.N,
    ),
});
