/**
 * Against real Snowflake, only when asked: `AIVIS_TEST_SNOWFLAKE_ACCOUNT`, `_USER`,
 * `_WAREHOUSE`, `_DATABASE`, optional `_ROLE` and `_ACCESS_URL`, and `_PASSWORD` or `_PRIVATE_KEY_FILE` (+
 * `_PRIVATE_KEY_PASSPHRASE`). The work runs in a child process without the loopback guard;
 * every other test stays on loopback.
 */
import { describe, expect, it } from 'vitest';
import { realAsRead, realText } from '../stand-ins/snowflake/number-text.ts';
import { variantText } from '../stand-ins/snowflake/variant-text.ts';
import { LIVE_ROW_VALUES, runLiveScript } from '../support/live-destination.ts';
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

describe('Snowflake live', () => {
  it.skipIf(missing !== undefined)(
    `check, load, MERGE, state, lock and value encodings on a throwaway schema${missing ? ` (skipped: ${missing})` : ''}`,
    { timeout: 300_000 },
    async () => {
      const seen = await runLiveScript('test/e2e/snowflake-live-run.ts');
      expect(seen.refused).toBe('refused');
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
      expect((seen.result as { rowsWritten: unknown }).rowsWritten).toEqual({ conformance_kinds: 1 });
      expect(seen.state).toEqual([
        {
          stream: 'mentions',
          scope: 'web_1',
          state: { frontier: 'f1', cursor: null, pending_upper_bound: null },
          updatedAt: '2026-03-01T12:00:00.123456Z',
        },
      ]);
    },
  );
});
