/**
 * OpenLineage events of the real `aivis sync` process against the sandbox and the real
 * PostgreSQL, delivered to a local endpoint configured the ecosystem's way (`OPENLINEAGE_URL`,
 * `OPENLINEAGE_API_KEY`): START then COMPLETE with one runId (the run row's), every event
 * valid against the official schemas, row counts equal to the rows loaded; FAIL with the
 * message and no secret; ABORT on SIGTERM; an endpoint that refuses or never answers costs
 * a warning, never the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { STREAM_NAMES, STREAM_TABLES } from '../../src/streams/registry.ts';
import { mentionsTable, runsTable } from '../../src/tables/index.ts';
import { freePort } from '../setup/free-port.ts';
import { runCli } from '../support/cli-process.ts';
import { jsonLines } from '../support/json-lines.ts';
import { startLineageReceiver } from '../support/lineage-receiver.ts';
import { runEventErrors } from '../support/openlineage-schema.ts';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { until } from '../support/until.ts';
import { expectedTables } from '../e2e/expected-rows.ts';
import { openWorld, SANDBOX } from '../e2e/sync-suite.ts';

const url = inject('postgresUrl');
const target = postgresTarget(url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-lineage-'));
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

const LINEAGE_KEY = 'ol-key-5d1f0c9a7b';
const AN_HOUR = 3_600_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Event = {
  eventType: string;
  run: { runId: string; facets: Record<string, { message?: string }> };
  job: { namespace: string; name: string };
  inputs: { namespace: string; name: string }[];
  outputs: {
    namespace: string;
    name: string;
    facets?: { schema?: { fields: { name: string; type: string }[] } };
    outputFacets?: { outputStatistics?: { rowCount: number } };
  }[];
};

describe('OpenLineage events of aivis sync (real CLI, real Postgres, local endpoint)', () => {
  let world: Awaited<ReturnType<typeof openWorld>>;
  let configPath: string;
  let env: NodeJS.ProcessEnv;
  const pg = new URL(url);

  const writeConfig = (extra: string[] = []) => {
    configPath = path.join(dir, `${world.schema}.yaml`);
    const lines = [
      'source:',
      `  base_url: ${world.sandbox.baseUrl}`,
      '  api_key: ${AIVIS_E2E_API_KEY}',
      '  requests_per_minute: 100',
      'destination:',
      '  type: postgres',
      '  url: ${AIVIS_E2E_DATABASE_URL}',
      `  schema: ${world.schema}`,
      ...extra,
      '',
    ];
    writeFileSync(configPath, lines.join('\n'));
  };

  /** A mentions-only config whose second website's mentions body stalls for an hour, so a run is caught mid-read. */
  const configWithOneStalledWebsite = () => {
    writeConfig(['streams:', '  mentions: {}']);
    const [, slow] = (world.sandbox.truth.websites() as { id: string }[]).map((w) => w.id);
    world.sandbox.faults.set({
      kind: 'slow_body',
      routes: ['mentions'],
      websites: [slow!],
      chunks: 2,
      chunkDelayMs: AN_HOUR,
    });
  };

  beforeEach(async () => {
    world = await openWorld(target, { ...SANDBOX, websites: 2, mentionsPerAnalysis: 40 });
    writeConfig();
    env = { AIVIS_E2E_API_KEY: world.sandbox.apiKey, AIVIS_E2E_DATABASE_URL: url };
  });
  afterEach(async () => {
    await world.close();
  });

  it('sends START then COMPLETE, valid, one runId recorded in the run row, row counts equal to the rows loaded', async () => {
    const receiver = await startLineageReceiver();
    try {
      const result = await runCli(['sync', '--config', configPath], {
        ...env,
        OPENLINEAGE_URL: `${receiver.url}/`,
        OPENLINEAGE_API_KEY: LINEAGE_KEY,
      }).done;
      expect(result.code).toBe(0);
      const events = receiver.received.map((r) => r.event as unknown as Event);
      expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
      for (const event of events) expect(runEventErrors(event)).toEqual([]);
      expect(receiver.received.map((r) => [r.path, r.authorization])).toEqual([
        ['/api/v1/lineage', `Bearer ${LINEAGE_KEY}`],
        ['/api/v1/lineage', `Bearer ${LINEAGE_KEY}`],
      ]);
      const [start, complete] = events as [Event, Event];
      expect(start.run.runId).toMatch(UUID);
      expect(complete.run.runId).toBe(start.run.runId);
      const runs = await world.rows(runsTable);
      expect(runs.map((r) => r.lineage_run_id)).toEqual([start.run.runId]);
      expect(complete.job).toMatchObject({ namespace: 'aivis', name: 'default.sync' });
      expect(complete.inputs).toEqual(STREAM_NAMES.map((name) => ({ namespace: world.sandbox.baseUrl, name })));

      // Every stream table, named as OpenLineage names Postgres tables, with its schema and the rows it took.
      const namespace = `postgres://127.0.0.1:${pg.port}`;
      const tables = Object.values(STREAM_TABLES).flat();
      for (const table of tables) {
        const output = complete.outputs.find((o) => o.name === `postgres.${world.schema}.${table.name}`);
        expect(output, table.name).toBeDefined();
        expect(output!.namespace).toBe(namespace);
        expect(output!.facets?.schema?.fields.map((f) => f.name)).toEqual(table.columns.map((c) => c.name));
        const loaded = (await world.rows(table)).length;
        expect(output!.outputFacets?.outputStatistics?.rowCount, table.name).toBe(loaded);
      }
      expect((await world.rows(mentionsTable)).length).toBeGreaterThan(0);
      expect(start.outputs.map((o) => o.name)).toEqual(tables.map((t) => `postgres.${world.schema}.${t.name}`));
      expect(start.outputs.every((o) => o.outputFacets === undefined)).toBe(true);
      expect(JSON.stringify(events)).not.toContain(world.sandbox.apiKey);
      expect(JSON.stringify(events)).not.toContain(pg.password);
    } finally {
      await receiver.close();
    }
  });

  it('sends FAIL with the error message, and no secret, when the run fails', async () => {
    const receiver = await startLineageReceiver();
    try {
      const wrongKey = 'wrong-key-0b7e44c1d2';
      const result = await runCli(['sync', '--config', configPath], {
        ...env,
        AIVIS_E2E_API_KEY: wrongKey,
        OPENLINEAGE_URL: receiver.url,
        OPENLINEAGE_NAMESPACE: 'pipelines',
      }).done;
      expect(result.code).toBe(1);
      const events = receiver.received.map((r) => r.event as unknown as Event);
      expect(events.map((e) => e.eventType)).toEqual(['START', 'FAIL']);
      for (const event of events) expect(runEventErrors(event)).toEqual([]);
      const fail = events[1]!;
      expect(fail.job).toMatchObject({ namespace: 'pipelines', name: 'default.sync' });
      const last = jsonLines(result.stderr).at(-1)!;
      expect(fail.run.facets.errorMessage?.message).toBe(last.msg);
      expect(fail.run.facets.errorMessage?.message).toMatch(/401/);
      expect(JSON.stringify(events)).not.toContain(wrongKey);
      expect(receiver.received.map((r) => r.authorization)).toEqual([undefined, undefined]);
    } finally {
      await receiver.close();
    }
  });

  it('sends ABORT when SIGTERM stops the run, and the run row says stopped', async () => {
    const receiver = await startLineageReceiver();
    try {
      configWithOneStalledWebsite();
      const { child, done } = runCli(['sync', '--config', configPath], { ...env, OPENLINEAGE_URL: receiver.url });
      await until(
        () => (world.sandbox.stats.byRoute.mentions ?? 0) >= 2 && receiver.received.length === 1,
        "the slow website's request and START",
      );
      child.kill('SIGTERM');
      const stopped = await done;
      expect(stopped.code).toBe(143);
      const events = receiver.received.map((r) => r.event as unknown as Event);
      expect(events.map((e) => e.eventType)).toEqual(['START', 'ABORT']);
      for (const event of events) expect(runEventErrors(event)).toEqual([]);
      const runs = await world.rows(runsTable);
      expect(runs.map((r) => [r.status, r.lineage_run_id])).toEqual([['stopped', events[0]!.run.runId]]);
      const mentions = events[1]!.outputs.find((o) => o.name.endsWith('.mentions'));
      expect(mentions?.outputFacets?.outputStatistics?.rowCount).toBe((await world.rows(mentionsTable)).length);
    } finally {
      await receiver.close();
    }
  });

  it('verify --repair is a run too: COMPLETE with rowCount = rows repaired; verify alone sends nothing', async () => {
    const receiver = await startLineageReceiver();
    try {
      writeConfig(['streams:', '  mentions: {}']);
      expect((await runCli(['sync', '--config', configPath], env).done).code).toBe(0);
      await target.pool.query(
        `DELETE FROM "${world.schema}".mentions WHERE id IN (SELECT id FROM "${world.schema}".mentions ORDER BY id LIMIT 7)`,
      );
      const lineageEnv = { ...env, OPENLINEAGE_URL: receiver.url };
      const verify = ['verify', '--config', configPath, '--stream', 'mentions', '--since', '2000-01-01T00:00:00Z'];
      expect((await runCli(verify, lineageEnv).done).code).toBe(3);
      expect(receiver.received).toEqual([]);
      const repaired = await runCli([...verify, '--repair'], lineageEnv).done;
      expect(repaired.code).toBe(3);
      const events = receiver.received.map((r) => r.event as unknown as Event);
      expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
      for (const event of events) expect(runEventErrors(event)).toEqual([]);
      expect(events[1]!.job.name).toBe('default.verify');
      expect(events[1]!.inputs).toEqual([{ namespace: world.sandbox.baseUrl, name: 'mentions' }]);
      expect(events[1]!.outputs.map((o) => [o.namespace, o.name, o.outputFacets?.outputStatistics?.rowCount])).toEqual([
        [`postgres://127.0.0.1:${pg.port}`, `postgres.${world.schema}.mentions`, 7],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('backfill is a run too; the console transport puts its events into the log', async () => {
    writeConfig(['streams:', '  mentions: {}', 'openlineage:', '  transport: { type: console }']);
    expect((await runCli(['sync', '--config', configPath], env).done).code).toBe(0);
    const backfill = await runCli(
      ['backfill', '--config', configPath, '--stream', 'mentions', '--since', '2000-01-01T00:00:00Z'],
      env,
    ).done;
    expect(backfill.code).toBe(0);
    const events = jsonLines(backfill.stderr)
      .filter((l) => l.msg === 'openlineage event')
      .map((l) => l.event as Event);
    expect(events.map((e) => [e.eventType, e.job.name])).toEqual([
      ['START', 'default.backfill'],
      ['COMPLETE', 'default.backfill'],
    ]);
    for (const event of events) expect(runEventErrors(event)).toEqual([]);
    // Backfill from 2000 re-reads and upserts every mention.
    const mentions = events[1]!.outputs.find((o) => o.name === `postgres.${world.schema}.mentions`);
    expect(mentions?.outputFacets?.outputStatistics?.rowCount).toBe((await world.rows(mentionsTable)).length);
  });

  it('an endpoint that refuses or is down costs a warning, never the run', async () => {
    const receiver = await startLineageReceiver('refuse');
    try {
      const result = await runCli(['sync', '--config', configPath], { ...env, OPENLINEAGE_URL: receiver.url }).done;
      expect(result.code).toBe(0);
      const warnings = jsonLines(result.stderr).filter(
        (l) => l.msg === 'OpenLineage event not delivered; the run goes on without it',
      );
      expect(warnings.map((w) => [w.level, w.event_type, w.error])).toEqual([
        ['warn', 'START', `${receiver.url}/api/v1/lineage answered HTTP 503`],
        ['warn', 'COMPLETE', `${receiver.url}/api/v1/lineage answered HTTP 503`],
      ]);
      await world.expectTruth();

      // And one that is down (nothing listens): the same, with the connection's error.
      const down = `http://127.0.0.1:${await freePort()}`;
      const again = await runCli(['sync', '--config', configPath], { ...env, OPENLINEAGE_URL: down }).done;
      expect(again.code).toBe(0);
      const downWarnings = jsonLines(again.stderr).filter(
        (l) => l.msg === 'OpenLineage event not delivered; the run goes on without it',
      );
      expect(downWarnings.map((w) => [w.event_type, w.target, w.error])).toEqual([
        ['START', `${down}/api/v1/lineage`, expect.stringContaining('ECONNREFUSED')],
        ['COMPLETE', `${down}/api/v1/lineage`, expect.stringContaining('ECONNREFUSED')],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('an endpoint that never answers costs its timeout per event, never the run', async () => {
    const receiver = await startLineageReceiver('hang');
    try {
      writeConfig([
        'streams:',
        '  mentions: {}',
        'openlineage:',
        `  transport: { type: http, url: "${receiver.url}", timeout: 0.5 }`,
      ]);
      const result = await runCli(['sync', '--config', configPath], env).done;
      expect(result.code).toBe(0);
      const warnings = jsonLines(result.stderr).filter(
        (l) => l.msg === 'OpenLineage event not delivered; the run goes on without it',
      );
      expect(warnings.map((w) => [w.event_type, w.error])).toEqual([
        ['START', 'no answer within 0.5 s'],
        ['COMPLETE', 'no answer within 0.5 s'],
      ]);
      expect((await world.rows(mentionsTable)).length).toBe(expectedTables(world.sandbox).get('mentions')?.length);
    } finally {
      await receiver.close();
    }
  });

  it('an endpoint that never answers does not hold up SIGTERM: lineage gets 1 s after the stop', async () => {
    const receiver = await startLineageReceiver('hang');
    try {
      configWithOneStalledWebsite();
      // The default timeout (5 s) is longer than the grace a stop leaves lineage.
      const { child, done } = runCli(['sync', '--config', configPath], { ...env, OPENLINEAGE_URL: receiver.url });
      await until(() => (world.sandbox.stats.byRoute.mentions ?? 0) >= 2, "the slow website's request");
      child.kill('SIGTERM');
      const stopped = await done;
      expect(stopped.code).toBe(143);
      const lines = jsonLines(stopped.stderr);
      const warnings = lines.filter((l) => l.msg === 'OpenLineage event not delivered; the run goes on without it');
      expect(warnings.map((w) => [w.event_type, w.error])).toEqual([
        ['ABORT', 'the endpoint had not answered START 1 s after the stop'],
      ]);
      expect(String(lines.at(-1)?.msg)).toMatch(/^stopped by SIGTERM/);
      expect((await world.rows(runsTable)).map((r) => r.status)).toEqual(['stopped']);
    } finally {
      await receiver.close();
    }
  });
});
