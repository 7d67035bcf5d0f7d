/**
 * A hostile or broken API cannot hold a run, whatever it answers (docs/operations.md#time-bounds):
 * the real `aivis sync` process under the container image's heap flags, the sandbox over
 * loopback, a DuckDB file. One website's mentions get the fault and the other's are honest:
 * the run ends by itself (this test's timeout is far below any wait the server asks for),
 * exit 3 with a message naming what the server did (exit 1 when the whole workspace is held),
 * the run row closed, no stack trace, the honest website's rows loaded; then a run against a
 * server that behaves is whole. Engine behaviour, so one destination.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { NOT_ANSWERING_AFTER } from '../../src/client/failure-streak.ts';
import { startSandbox, type FaultProfile, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

/** As the Dockerfile runs the CLI. */
const IMAGE_NODE_OPTIONS = '--max-semi-space-size=1 --max-old-space-size=256';
/** A stack frame as Node prints it. */
const STACK_FRAME = /^\s*at .*(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;
/** An hour, less a second: what the hostile server asked for. */
const LONG_WAIT = 3599;
const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-hostile-time-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

let cases = 0;
/** A sandbox of `websites` websites and a config reading their mentions into a fresh DuckDB file. */
async function openCase(websites = 2) {
  sandbox = await startSandbox({
    seed: 11,
    websites,
    requestsPerMinute: 0,
    analysesPerWebsite: 2,
    mentionsPerAnalysis: 30,
  });
  const name = `case${++cases}`;
  const file = path.join(dir, `${name}.duckdb`);
  const config = path.join(dir, `${name}.yaml`);
  writeFileSync(
    config,
    [
      'source:',
      `  base_url: ${sandbox.baseUrl}`,
      '  api_key: ${AIVIS_E2E_API_KEY}',
      '  requests_per_minute: 6000',
      '  timeout_seconds: 1',
      '  retry_budget_seconds: 2.5',
      'destination:',
      '  type: duckdb',
      `  path: ${file}`,
      'streams:',
      '  websites: {}',
      '  mentions: {}',
      '',
    ].join('\n'),
  );
  const sb = sandbox;
  const ids = (sb.truth.websites() as { id: string }[]).map((w) => w.id);
  const sync = async () => {
    const result = await runCli(['sync', '--config', config], {
      AIVIS_E2E_API_KEY: sb.apiKey,
      NODE_OPTIONS: IMAGE_NODE_OPTIONS,
    }).done;
    expect(result.signal).toBeNull();
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).not.toMatch(STACK_FRAME);
    // Off a terminal, every stderr line is one JSON object.
    jsonLines(result.stderr);
    return result;
  };
  const query = (sql: string) => queryDuckDbFile(file, sql);
  const mentionIds = async (websiteId: string) =>
    new Set(
      (await query(`SELECT id FROM aivis.mentions WHERE website_id = '${websiteId}'`)).map((r) => r.id as string),
    );
  const truthIds = (websiteId: string) => new Set([...sb.truth.mentions(websiteId)].map((m) => m.id as string));
  return {
    sandbox: sb,
    ids,
    sync,
    runs: () =>
      query('SELECT status, error, finished_at IS NOT NULL AS closed FROM aivis._aivis_runs ORDER BY started_at'),
    mentionIds,
    truthIds,
    /** The next run, against a server that behaves, exits 0 and loads every website's mentions. */
    async expectWholeNextRun() {
      sb.faults.clear();
      const next = await sync();
      expect(next.code, next.stderr).toBe(0);
      for (const id of ids) expect(await mentionIds(id), `mentions of ${id}`).toEqual(truthIds(id));
    },
  };
}

type Case = Awaited<ReturnType<typeof openCase>>;

/** The faulted website's stream failed alone: exit 3, its message in the summary and the run row, the other website loaded. */
async function expectContained(c: Case, result: Awaited<ReturnType<Case['sync']>>, message: RegExp) {
  const [hostile, honest] = c.ids as [string, string];
  expect(result.code, result.stderr).toBe(3);
  const failed = result.stdout.split('\n').filter((line) => line.startsWith('  FAILED '));
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatch(new RegExp(`^  FAILED ${hostile} mentions: ${message.source}$`));
  const runs = await c.runs();
  expect(runs.map((r) => [r.status, r.error, r.closed])).toEqual([['partial', null, true]]);
  expect(await c.mentionIds(honest)).toEqual(c.truthIds(honest));
  expect(await c.mentionIds(hostile)).toEqual(new Set());
}

const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a run against a hostile API ends by itself (real CLI, image heap flags, DuckDB)', () => {
  it(`a 503 asking to wait ${LONG_WAIT} s fails that website's stream at once, naming the wait (exit 3)`, async () => {
    const c = await openCase();
    c.sandbox.faults.set({ kind: 'unavailable', retryAfter: LONG_WAIT, routes: ['mentions'], websites: [c.ids[0]!] });
    const result = await c.sync();
    await expectContained(
      c,
      result,
      new RegExp(
        `API server error \\(503 temporarily_unavailable, request_id req_\\d+\\): GET /public/v2/websites/${c.ids[0]}/mentions: the API asked to wait ${LONG_WAIT} s \\(Retry-After\\) before the next attempt, more than the [0-2] s left of this request's retry budget \\(source\\.retry_budget_seconds: 2\\.5\\); try again after ${ISO}`,
      ),
    );
    // Asked once, never retried early into the same refusal.
    expect(c.sandbox.stats.byRoute.mentions).toBe(2);
    await c.expectWholeNextRun();
  });

  it(`a 429 asking to wait ${LONG_WAIT} s ends the run (exit 1), saying when to run again; what was read is committed`, async () => {
    const c = await openCase();
    c.sandbox.faults.set({ kind: 'rate_limited', retryAfter: LONG_WAIT, routes: ['mentions'], websites: [c.ids[0]!] });
    const result = await c.sync();
    expect(result.code, result.stderr).toBe(1);
    const message = new RegExp(
      `^rate limited \\(429 rate_limited, request_id req_\\d+\\): GET /public/v2/websites/${c.ids[0]}/mentions: the API asked to wait ${LONG_WAIT} s \\(Retry-After\\) before the next attempt, more than the [0-2] s left of this request's retry budget \\(source\\.retry_budget_seconds: 2\\.5\\); every request of this workspace would wait for it, so the run ends: run again after ${ISO}$`,
    );
    expect(jsonLines(result.stderr).at(-1)).toEqual(failureLine(message, 1));
    const runs = await c.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'failed', closed: true });
    expect(runs[0]!.error).toMatch(message);
    expect(await c.mentionIds(c.ids[1]!)).toEqual(c.truthIds(c.ids[1]!));
    await c.expectWholeNextRun();
  });

  it("a server that accepts the request and never answers costs that website's stream one retry budget (exit 3)", async () => {
    const c = await openCase();
    c.sandbox.faults.set({ kind: 'no_answer', routes: ['mentions'], websites: [c.ids[0]!] });
    const result = await c.sync();
    await expectContained(
      c,
      result,
      new RegExp(
        `request timed out \\(no complete response, request_id none\\): GET /public/v2/websites/${c.ids[0]}/mentions: no complete response within \\d+ ms after \\d retries, the 2\\.5 s of its retry budget spent \\(source\\.retry_budget_seconds\\); check source\\.base_url and the network, or try again later`,
      ),
    );
    await c.expectWholeNextRun();
  });

  it(`a workspace whose every stream stops answering ends after ${NOT_ANSWERING_AFTER} failures in a row: "the API is not answering" (exit 1)`, async () => {
    const c = await openCase(7);
    c.sandbox.faults.set({ kind: 'no_answer', routes: ['mentions'] });
    const result = await c.sync();
    expect(result.code, result.stderr).toBe(1);
    const message =
      /^the API is not answering: 5 requests in a row failed after their retries, the last with: request timed out \(no complete response, request_id none\): GET \/public\/v2\/websites\/web_\w+\/mentions: no complete response within \d+ ms after \d retries, the 2\.5 s of its retry budget spent \(source\.retry_budget_seconds\); check source\.base_url and the network, or try again later$/;
    expect(jsonLines(result.stderr).at(-1)).toEqual(failureLine(message, 1));
    const runs = await c.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'failed', closed: true });
    expect(runs[0]!.error).toMatch(message);
    // Not every website was walked through the same timeouts: the ones after the fifth failure were not asked.
    expect(c.sandbox.stats.byRoute.mentions).toBeLessThan(7 * 3);
    // The listing read before it is committed.
    const listed = await queryDuckDbFile(
      path.join(dir, `case${cases}.duckdb`),
      'SELECT count(*)::INTEGER AS n FROM aivis.websites',
    );
    expect(listed[0]!.n).toBe(7);
    await c.expectWholeNextRun();
  });

  it.each<[string, Omit<FaultProfile, 'routes' | 'websites'>, (c: Case) => string]>([
    [
      "an HTML page (a captive portal's sign-in) answered with 200",
      { kind: 'html_page' },
      (c) =>
        `invalid response \\(200, request_id req_\\d+\\): GET /public/v2/websites/${c.ids[0]}/mentions: the 200 response is an HTML page \\(text/html, \\d+ characters\\), not JSON: a proxy or captive portal\\? check that source\\.base_url is the API and that this machine reaches it without a login page`,
    ],
    [
      'a 204',
      { kind: 'no_content' },
      (c) =>
        `invalid response \\(204, request_id req_\\d+\\): GET /public/v2/websites/${c.ids[0]}/mentions: the answer is 204 No Content, with no body, where every V2 answer is a JSON document`,
    ],
    [
      'an empty 200',
      { kind: 'empty_body' },
      (c) =>
        `invalid response \\(200, request_id req_\\d+\\): GET /public/v2/websites/${c.ids[0]}/mentions: the 200 response has an empty body, where every V2 answer is a JSON document`,
    ],
  ])('%s fails that stream at once, unretried, saying what it was (exit 3)', async (_what, fault, message) => {
    const c = await openCase();
    c.sandbox.faults.set({ ...fault, routes: ['mentions'], websites: [c.ids[0]!] });
    const result = await c.sync();
    await expectContained(c, result, new RegExp(message(c)));
    expect(c.sandbox.stats.byRoute.mentions).toBe(2);
    await c.expectWholeNextRun();
  });

  it("a server's error text with a right-to-left override is shown escaped, never reordered (exit 3)", async () => {
    const c = await openCase();
    const text = 'Quota for key \u202eyek-eht\u202c exceeded \u2066here\u2069.';
    c.sandbox.faults.set({ kind: 'internal_error', message: text, routes: ['mentions'], websites: [c.ids[0]!] });
    const result = await c.sync();
    const shown = 'Quota for key \\u202eyek-eht\\u202c exceeded \\u2066here\\u2069';
    await expectContained(
      c,
      result,
      new RegExp(
        `API server error \\(500 internal_error, request_id req_\\d+\\): GET /public/v2/websites/${c.ids[0]}/mentions still failing after \\d retries(, the 2\\.5 s of its retry budget spent \\(source\\.retry_budget_seconds\\))?: ${esc(shown)}; try again later`,
      ),
    );
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    // The log line says it escaped, and parses back to the server's words.
    const logged = jsonLines(result.stderr).find((line) => String(line.error ?? '').includes('Quota for key'));
    expect(logged?.error).toContain(text.slice(0, -1));
    await c.expectWholeNextRun();
  });
});
