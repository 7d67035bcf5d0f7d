/**
 * Against real Snowflake, only when asked: `AIVIS_TEST_SNOWFLAKE_ACCOUNT`, `_USER`,
 * `_WAREHOUSE`, `_DATABASE`, optional `_ROLE` and `_ACCESS_URL`, and `_PASSWORD` or `_PRIVATE_KEY_FILE` (+
 * `_PRIVATE_KEY_PASSPHRASE`). The work runs in a child process without the loopback guard;
 * every other test stays on loopback. The same script and expectations run against the
 * stand-in on every `npm test` (guarded), so the live check cannot rot unseen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOADER, type StandInSetup, startStandIn } from '../../stand-ins/snowflake/stand-in-fixture.ts';
import { realAsRead, realText } from '../../stand-ins/snowflake/number-text.ts';
import { variantText } from '../../stand-ins/snowflake/variant-text.ts';
import { CONCURRENT_WORKSPACES, LIVE_ROW_VALUES, runLiveScript } from '../../support/live-destination.ts';
import { expectSharedLiveRun } from '../../support/live-expectations.ts';
import { PROBE_FLOAT, PROBE_JSON } from './snowflake-live-probe.ts';

const env = (name: string) => process.env[`AIVIS_TEST_SNOWFLAKE_${name}`];
const missing = !env('ACCOUNT')
  ? 'AIVIS_TEST_SNOWFLAKE_ACCOUNT is not set'
  : ((['USER', 'WAREHOUSE', 'DATABASE'] as const)
      .filter((n) => !env(n))
      .map((n) => `AIVIS_TEST_SNOWFLAKE_${n} is not set`)[0] ??
    (!env('PASSWORD') && !env('PRIVATE_KEY_FILE')
      ? 'no Snowflake credentials (AIVIS_TEST_SNOWFLAKE_PASSWORD or AIVIS_TEST_SNOWFLAKE_PRIVATE_KEY_FILE)'
      : undefined));

const WHAT =
  'check, load, MERGE, state, lock, concurrent workspaces, QUERY_TAG and value encodings on a throwaway mixed-case schema';

describe('Snowflake live', () => {
  it.skipIf(missing !== undefined)(
    `${WHAT}${missing ? ` (skipped: ${missing})` : ''}`,
    { timeout: 300_000 },
    async () => expectLiveRun(await runLiveScript('test/connectors/snowflake/snowflake-live-run.ts')),
  );
});

describe('Snowflake live script against the stand-in', () => {
  let setup: StandInSetup;
  beforeAll(async () => {
    setup = await startStandIn();
  });
  afterAll(() => setup?.standIn.close());

  it(WHAT, async () => {
    const config = setup.config('unused');
    const env = {
      AIVIS_TEST_SNOWFLAKE_ACCOUNT: config.account,
      AIVIS_TEST_SNOWFLAKE_USER: config.username,
      AIVIS_TEST_SNOWFLAKE_PASSWORD: LOADER.password,
      // A key file set for the live test would take precedence over the stand-in's password.
      AIVIS_TEST_SNOWFLAKE_PRIVATE_KEY_FILE: '',
      AIVIS_TEST_SNOWFLAKE_WAREHOUSE: config.warehouse,
      AIVIS_TEST_SNOWFLAKE_DATABASE: config.database,
      AIVIS_TEST_SNOWFLAKE_ROLE: config.role!,
      AIVIS_TEST_SNOWFLAKE_ACCESS_URL: config.access_url!,
    };
    expectLiveRun(await runLiveScript('test/connectors/snowflake/snowflake-live-run.ts', { env }));
  });
});

/** What the live script must have seen, on Snowflake and on the stand-in alike. */
function expectLiveRun(seen: Record<string, unknown>): void {
  expectSharedLiveRun(seen);
  // Floats as the driver returns them: Snowflake's JSON results carry 15 significant digits.
  expect(seen.rows).toEqual([
    {
      id: 'r1',
      s: null,
      i: '9007199254740993',
      f: realAsRead(LIVE_ROW_VALUES.f),
      b: true,
      t: '2026-01-02T03:04:05.123456Z',
      j: { a: [1, 2] },
    },
  ]);
  // The stand-in's encodings of a FLOAT and a VARIANT are Snowflake's own.
  expect(seen.probe).toEqual({ float: realText(PROBE_FLOAT), variant: variantText(PROBE_JSON) });
  // Every session's statements carry aivis:<workspace>:<run id>; each workspace's flush MERGEd its rows and its state.
  const tags = (seen.recorded as { tag: string; merges: number }[]).map((r) => r.tag);
  expect(tags).toEqual(['default', ...CONCURRENT_WORKSPACES].map((w) => `aivis:${w}:${seen.runId}`));
  for (const { merges } of seen.recorded as { merges: number }[]) expect(merges).toBeGreaterThanOrEqual(2);
}
