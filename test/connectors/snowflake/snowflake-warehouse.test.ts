/**
 * What a run costs on Snowflake and how it is found: warehouse time that follows the flushes
 * (not the run's length), the QUERY_TAG on every statement, and database and schema names
 * quoted as configured. Through the real driver against the stand-in, whose warehouse meter
 * counts resumes and running seconds with AUTO_SUSPEND = 60.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSnowflakeDestination } from '../../../connectors/snowflake/index.ts';
import type { SnowflakeDeps } from '../../../connectors/snowflake/snowflake-destination.ts';
import { SNOWFLAKE_LEASE_MS } from '../../../connectors/snowflake/snowflake-config.ts';
import { connectionOptions, snowflakeLocation } from '../../../connectors/snowflake/snowflake-config.ts';
import { connectSnowflake } from '../../../connectors/snowflake/snowflake-client.ts';
import { snowflakeLockTable } from '../../../connectors/snowflake/snowflake-lock.ts';
import { renewLeaseSql } from '../../../connectors/snowflake/snowflake-sql.ts';
import type { Destination, RunIdentity } from '../../../src/destination/destination.ts';
import { readState } from '../../../src/destination/queries/saved-state.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';
import { ENGINE_TABLES } from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, owner, stateEntry } from '../../conformance/fixtures.ts';
import { type StandInSetup, startStandIn } from '../../stand-ins/snowflake/stand-in-fixture.ts';
import { needsWarehouse, WarehouseMeter } from '../../stand-ins/snowflake/stand-in-warehouse.ts';
import { snowflakeRowReader } from '../../stand-ins/snowflake/row-reader.ts';

let setup: StandInSetup;
const opened: Destination[] = [];

beforeAll(async () => {
  setup = await startStandIn([], ['Mixed_Case']);
});
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
});
afterAll(() => setup?.standIn.close());

const RUN: RunIdentity = { runId: 'run_20261125T080000_0badf00d', workspace: 'acme', command: 'sync' };

async function open(
  schema: string,
  overrides: Parameters<StandInSetup['config']>[1] = {},
  run: RunIdentity | undefined = RUN,
  repeat?: SnowflakeDeps['repeat'],
): Promise<Destination> {
  const destination = createSnowflakeDestination(setup.config(schema, overrides), {
    logger: silentLogger,
    now: () => new Date(setup.standIn.clock.now()),
    ...(run ? { run } : {}),
    ...(repeat ? { repeat } : {}),
  });
  opened.push(destination);
  await destination.open();
  return destination;
}

/** A renewal timer on the test's clock: `tick(ms)` fires what falls due, as the stand-in's clock moves. */
function testTimers() {
  const timers = new Set<{ ms: number; fire: () => void; next: number }>();
  let elapsed = 0;
  const repeat: NonNullable<SnowflakeDeps['repeat']> = (ms, fire) => {
    const timer = { ms, fire, next: elapsed + ms };
    timers.add(timer);
    return () => timers.delete(timer);
  };
  const tick = (ms: number) => {
    elapsed += ms;
    for (const timer of timers) for (; timer.next <= elapsed && timers.has(timer); timer.next += timer.ms) timer.fire();
  };
  return { repeat, tick, timers };
}

const flush = (id: string) => flushOf(kindsTable, [kindsRow(id, { i: 1 })], [stateEntry('mentions', 'web_1', id)]);

describe('Snowflake warehouse time follows the flushes', () => {
  it('the stand-in meters a warehouse as Snowflake bills it: resumed by compute, suspended after 60 idle seconds', () => {
    let now = 0;
    const meter = new WarehouseMeter(() => now);
    meter.use(0, 5_000); // resumes
    meter.use(30_000, 31_000); // within AUTO_SUSPEND: same run
    now = 200_000;
    meter.use(200_000, 200_000); // suspended at 91 s: resumes again
    now = 1_000_000;
    expect({ resumes: meter.resumes, running: meter.runningSeconds(), billed: meter.billedSeconds() }).toEqual({
      resumes: 2,
      running: 91 + 60,
      billed: 91 + 60,
    });
  });

  it('flushes by time only every 15 minutes by default, as configured otherwise', async () => {
    expect((await open('flush_default')).capabilities.maxSecondsPerFlush).toBe(900);
    expect((await open('flush_set', { flush_interval_seconds: 120 })).capabilities.maxSecondsPerFlush).toBe(120);
  });

  it('the run lock rides on the flushes: 30 minutes with a flush every 10 renew it 3 times and resume the warehouse 4 times', async () => {
    const { repeat, tick } = testTimers();
    const { standIn } = setup;
    // Ten quiet minutes first: the warehouse has suspended after whatever ran before.
    await standIn.clock.advance(600_000);
    const resumesBefore = standIn.warehouse.resumes;
    const d = await open('lease_rides', {}, RUN, repeat);
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    const lock = await d.acquireLock(owner('run-rides', 7));
    await commitFlush(d, flush('a'));
    for (const id of ['b', 'c', 'd']) {
      for (let minute = 0; minute < 10; minute++) {
        await standIn.clock.advance(60_000);
        tick(60_000);
      }
      await commitFlush(d, flush(id));
    }
    await lock.release();
    const renewal = renewLeaseSql(snowflakeLocation(setup.config('lease_rides')), snowflakeLockTable);
    expect(standIn.queryHistory.filter((q) => q.queryText === renewal)).toHaveLength(3);
    // Setup, the take and the first flush share one resume; each later flush (its renewal included) one more.
    expect(standIn.warehouse.resumes - resumesBefore).toBe(4);
  });

  it("the lease's renewal timer is the one the destination is given, and renews a lease no write renewed", async () => {
    const { repeat, tick, timers } = testTimers();
    const { standIn } = setup;
    const d = await open('lease_timer', {}, RUN, repeat);
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    const lock = await d.acquireLock(owner('run-timer', 7));
    expect([...timers].map((t) => t.ms)).toEqual([SNOWFLAKE_LEASE_MS / 6]);
    const renewal = renewLeaseSql(snowflakeLocation(setup.config('lease_timer')), snowflakeLockTable);
    const renewals = () => standIn.queryHistory.filter((q) => q.queryText === renewal).length;
    // No writes for two thirds of the lease: the timer renews it.
    for (let minute = 0; minute < 20; minute++) {
      await standIn.clock.advance(60_000);
      tick(60_000);
    }
    await commitFlush(d, flush('a'));
    expect(renewals()).toBe(1);
    await lock.release();
    expect(timers.size).toBe(0);
  });

  it('a flush runs two statements a table on the warehouse (stage INSERT, MERGE); its stages are made afresh in cloud services', async () => {
    const { standIn } = setup;
    const d = await open('flush_statements');
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    for (const id of ['a', 'b']) {
      const from = standIn.queryHistory.length;
      await commitFlush(d, flush(id));
      const statements = standIn.queryHistory.slice(from).map((q) => q.queryText);
      // Two tables: the rows' and _aivis_state.
      expect(statements.filter(needsWarehouse)).toEqual([
        expect.stringMatching(/^INSERT INTO _aivis_stage_conformance_kinds /),
        expect.stringMatching(/^MERGE INTO .*\bconformance_kinds\b/),
        expect.stringMatching(/^INSERT INTO _aivis_stage__aivis_state /),
        expect.stringMatching(/^MERGE INTO .*\b_aivis_state\b/),
      ]);
      expect(statements.filter((s) => s.startsWith('CREATE OR REPLACE TEMPORARY TABLE'))).toHaveLength(2);
    }
    const reader = await snowflakeRowReader(setup);
    expect((await reader.rows('flush_statements', kindsTable)).map((r) => r.id)).toEqual(['a', 'b']);
    await reader.close();
  });
});

describe('Snowflake statements that outlast their request', () => {
  it('a statement answered "query in progress" is polled until its result comes, and the flush lands', async () => {
    const { standIn } = setup;
    const d = await open('in_progress');
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    const before = standIn.inProgressAnswers;
    standIn.faults = { inProgressPolls: 2 };
    try {
      await commitFlush(d, flush('a'));
      expect((await readState(d, 'default')).map((s) => s.scope)).toEqual(['web_1']);
    } finally {
      standIn.faults = {};
    }
    expect(standIn.inProgressAnswers - before).toBeGreaterThan(10);
  });
});

describe('Snowflake QUERY_TAG', () => {
  it('every statement of the run, data and lock sessions alike, carries aivis:<workspace>:<run id>', async () => {
    const { standIn } = setup;
    const from = standIn.queryHistory.length;
    const d = await open('tagged');
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    const lock = await d.acquireLock(owner('run-tagged', 8));
    await commitFlush(d, flush('a'));
    await lock.release();
    const statements = standIn.queryHistory.slice(from).filter((q) => !/QUERY_TAG/.test(q.queryText));
    expect(new Set(statements.map((q) => q.session)).size).toBe(2);
    expect(new Set(statements.map((q) => q.queryTag))).toEqual(new Set(['aivis:acme:run_20261125T080000_0badf00d']));
  });

  it('a tag with a quote and a backslash reaches Snowflake exactly (its string literals escape with both)', async () => {
    const { standIn } = setup;
    const tag = "aivis:o'brien\\n:run";
    const client = await connectSnowflake(connectionOptions(setup.config('tag_escape')), tag);
    const from = standIn.queryHistory.length;
    await client.execute('SELECT 1');
    await client.close();
    expect(standIn.queryHistory.slice(from).map((q) => q.queryTag)).toEqual([tag]);
  });
});

describe('Snowflake names: quoted as configured', () => {
  it('a database written in double quotes is used exactly, case and all', async () => {
    const d = await open('MIXED', { database: '"Mixed_Case"' });
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    await commitFlush(d, flush('a'));
    expect((await readState(d, 'default')).map((s) => s.scope)).toEqual(['web_1']);
  });

  it('an unquoted one resolves upper-case, as in Snowflake SQL, and is refused when only the mixed-case one exists', async () => {
    const d = await open('MIXED', { database: 'Mixed_Case' });
    await expect(d.ensureTables([kindsTable])).rejects.toThrow(
      "Database 'MIXED_CASE' does not exist or not authorized.",
    );
  });
});
