/**
 * One stand-in per test file: started before the tests, checked and closed after them. The
 * closing checks hold for every file: the driver never tried the stage bind path, and every
 * session the connector opened was ended, and the faults asked for were given.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { snowflakeRowReader, type SnowflakeRowReader } from './row-reader.ts';
import type { SnowflakeStandIn } from './snowflake-stand-in.ts';
import { startStandIn, type StandInSetup } from './stand-in-fixture.ts';

/** The file's stand-in and row reader, available once `beforeAll` ran. */
export interface StandInHooks {
  setup(): StandInSetup;
  reader(): SnowflakeRowReader;
}

/**
 * Faults the shared suites run Snowflake with: every statement first answered "query in
 * progress" and polled for its result, as Snowflake answers one that outlasts its request.
 */
export const SUITE_FAULTS: SnowflakeStandIn['faults'] = { inProgressPolls: 1 };

export function useSnowflakeStandIn(
  options: { expectAllSessionsClosed?: boolean; faults?: SnowflakeStandIn['faults'] } = {},
): StandInHooks {
  let setup: StandInSetup | undefined;
  let reader: SnowflakeRowReader | undefined;
  beforeAll(async () => {
    setup = await startStandIn();
    setup.standIn.faults = options.faults ?? {};
    reader = await snowflakeRowReader(setup);
  });
  afterAll(async () => {
    await reader?.close();
    if (!setup) return;
    expect(setup.standIn.stats.stageBindAttempts, 'stage bind attempts').toBe(0);
    if (options.expectAllSessionsClosed ?? true) expect(setup.standIn.openSessions(), 'sessions left open').toBe(0);
    if (options.faults?.inProgressPolls)
      expect(setup.standIn.inProgressAnswers, '"query in progress" answers given').toBeGreaterThan(0);
    await setup.standIn.close();
  });
  return { setup: () => setup!, reader: () => reader! };
}
