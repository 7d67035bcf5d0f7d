/**
 * One stand-in per test file: started before the tests, checked and closed after them. The
 * closing checks hold for every file: the driver never tried the stage bind path, and every
 * session the connector opened was ended.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { snowflakeRowReader, type SnowflakeRowReader } from './row-reader.ts';
import { startStandIn, type StandInSetup } from './stand-in-fixture.ts';

/** The file's stand-in and row reader, available once `beforeAll` ran. */
export interface StandInHooks {
  setup(): StandInSetup;
  reader(): SnowflakeRowReader;
}

export function useSnowflakeStandIn(options: { expectAllSessionsClosed?: boolean } = {}): StandInHooks {
  let setup: StandInSetup | undefined;
  let reader: SnowflakeRowReader | undefined;
  beforeAll(async () => {
    setup = await startStandIn();
    reader = await snowflakeRowReader(setup);
  });
  afterAll(async () => {
    await reader?.close();
    if (!setup) return;
    expect(setup.standIn.stats.stageBindAttempts, 'stage bind attempts').toBe(0);
    if (options.expectAllSessionsClosed ?? true) expect(setup.standIn.openSessions(), 'sessions left open').toBe(0);
    await setup.standIn.close();
  });
  return { setup: () => setup!, reader: () => reader! };
}
