/**
 * The product's own path to BigQuery, as a user runs it: `aivis check | streams | sync
 * --config FILE` in a child process (loopback guard loaded), the destination factory, the
 * lazily loaded SDK, and Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS names
 * an `external_account` file whose token exchange the stand-in answers on loopback.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { mentionsTable } from '../../src/tables/index.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { writeAdcFile } from '../stand-ins/bigquery/fake-auth.ts';

let sandbox: Sandbox;
let standIn: BigqueryStandIn;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ requestsPerMinute: 0, websites: 3, seed: 11 });
  standIn = await startBigqueryStandIn();
  dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bq-cli-'));
  const adc = await writeAdcFile(dir, standIn.url);
  env = {
    ...process.env,
    GOOGLE_APPLICATION_CREDENTIALS: adc,
    AIVIS_TEST_API_KEY: sandbox.apiKey,
    AIVIS_CONFIG: '',
  };
});
afterAll(async () => {
  await sandbox?.close();
  await standIn?.close();
});

async function config(dataset: string): Promise<string> {
  const file = path.join(dir, `${dataset}.yaml`);
  await writeFile(
    file,
    [
      'source:',
      `  base_url: ${sandbox.baseUrl}`,
      '  api_key: ${AIVIS_TEST_API_KEY}',
      '  requests_per_minute: 6000',
      'destination:',
      '  type: bigquery',
      `  project: ${standIn.projectId}`,
      `  dataset: ${dataset}`,
      '  location: US',
      `  api_endpoint: ${standIn.url}`,
      '',
    ].join('\n'),
  );
  return file;
}

async function aivis(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('aivis with a BigQuery destination', () => {
  it('check proves the dataset writable through ADC, and names the missing permission when it is not', async () => {
    const file = await config('cli_check');
    const ok = await aivis('check', '--config', file);
    expect(ok.stdout).toContain('ok   destination bigquery: reachable, can create and write tables\n');
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    expect(standIn.tokenExchanges).toBeGreaterThan(0);

    standIn.deny('bigquery.tables.create');
    try {
      const denied = await aivis('check', '--config', file);
      expect(denied.stdout).toContain(
        'FAIL destination bigquery: the BigQuery identity lacks permissions that sync uses in dataset aivis-test:cli_check; grant it (on the dataset, or on the project where named):\n' +
          '  bigquery.tables.create on dataset cli_check: grant roles/bigquery.dataEditor\n',
      );
      expect(denied.code).toBe(1);
    } finally {
      standIn.allowAll();
    }
  });

  it('every verb that reads or writes names the missing permission and its role, with no stack frame', async () => {
    const file = await config('cli_denied');
    expect((await aivis('sync', '--config', file)).code).toBe(0);
    standIn.deny('bigquery.jobs.create');
    try {
      for (const verb of [['sync'], ['status'], ['state', 'show'], ['state', 'reset']]) {
        const denied = await aivis(...verb, '--config', file);
        const last = denied.stderr.trim().split('\n').at(-1) ?? '';
        expect({ verb, code: denied.code }).toEqual({ verb, code: 1 });
        expect(JSON.parse(last).msg).toMatch(
          /permission denied: bigquery\.jobs\.create on project aivis-test: grant roles\/bigquery\.jobUser on the project$/,
        );
        expect(denied.stdout + denied.stderr).not.toMatch(/^\s+at /m);
      }
    } finally {
      standIn.allowAll();
    }
  });

  it('streams prints BigQuery DDL with the partitioning and clustering', async () => {
    const { code, stdout } = await aivis('streams', '--config', await config('cli_streams'));
    expect(code).toBe(0);
    expect(stdout).toContain('CREATE TABLE IF NOT EXISTS `aivis-test.cli_streams.mentions` (');
    expect(stdout).toContain(
      `PARTITION BY DATE(\`observed_at\`)\nCLUSTER BY \`website_id\`, \`analysis_id\`\nOPTIONS (description = '${mentionsTable.description}');\n`,
    );
    expect(stdout).toContain('CREATE OR REPLACE VIEW `aivis-test.cli_streams.websites_current` (');
  });

  it('sync loads every website and reports the warehouse jobs; the key never shows; every job names the run', async () => {
    const before = standIn.jobs.length;
    const { code, stdout, stderr } = await aivis('sync', '--config', await config('cli_sync'));
    expect({ code, stderr: stderr.split('\n').filter((l) => /"level":"(warn|error)"/.test(l)) }).toEqual({
      code: 0,
      stderr: [],
    });
    expect(stdout).toMatch(/\n {2}bigquery {2}\d+ flushes, \d+ warehouse jobs, \d+ bytes processed/);
    expect(stdout + stderr).not.toContain(sandbox.apiKey);
    const { rows } = await standIn.engine.query('SELECT id FROM `aivis-test.cli_sync.websites` ORDER BY id');
    expect(rows.map((r) => r.f[0]!.v)).toEqual(
      sandbox.truth
        .websites()
        .map((w) => w.id as string)
        .sort(),
    );
    // The run id the run row records is on every query job's labels and in every job id.
    const runs = await standIn.engine.query('SELECT id FROM `aivis-test.cli_sync._aivis_runs`');
    const runId = String(runs.rows[0]!.f[0]!.v);
    const jobs = standIn.jobs.slice(before);
    expect(new Set(jobs.map((j) => j.jobReference.jobId.startsWith(`aivis_${runId}_`)))).toEqual(new Set([true]));
    expect(
      new Set(jobs.filter((j) => j.configuration.query).map((j) => JSON.stringify(j.configuration.labels))),
    ).toEqual(
      new Set([
        JSON.stringify({ aivis_run_id: runId.toLowerCase(), aivis_workspace: 'default', aivis_command: 'sync' }),
      ]),
    );
  });
});
