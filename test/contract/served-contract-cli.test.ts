/**
 * The served contract as a user meets it: `aivis check` and `aivis sync` (real processes)
 * against sandboxes whose served contract declares more, cannot be used, or is hostile, into
 * DuckDB files. Exact drift lines, exact warnings, exit codes, and what `_aivis_contracts`,
 * `_aivis_runs` and `_aivis_rejected` hold afterwards.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { startSandbox, type SandboxVariant } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-served-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Runs `aivis <verb> [...more]` against a fresh sandbox with these variants (seed 11: the same world every time). */
async function run(
  verb: 'check' | 'sync' | 'verify',
  variants: SandboxVariant[],
  database = path.join(dir, `d${++files}.duckdb`),
  more: string[] = [],
  env: NodeJS.ProcessEnv = {},
  configLines: string[] = [],
) {
  const sandbox = await startSandbox({ seed: 11, websites: 2, requestsPerMinute: 0, variants });
  try {
    const config = writeSandboxConfig(path.join(dir, `c${++files}.yaml`), sandbox.baseUrl, [
      '  type: duckdb',
      `  path: ${database}`,
      ...configLines,
    ]);
    const result = await runCli([verb, '--config', config, ...more], { AIVIS_API_KEY: sandbox.apiKey, ...env }).done;
    const warnings = result.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      // The contract's warnings: a slow machine may add others (a slow flush) that are not under test.
      .filter((line) => line.level === 'warn' && line.msg.includes('contract'))
      .map((line) => line.msg);
    return {
      ...result,
      lines: result.stdout.split('\n').filter(Boolean),
      warnings,
      database,
      baseUrl: sandbox.baseUrl,
    };
  } finally {
    await sandbox.close();
  }
}

const query = queryDuckDbFile;
const UNUSABLE = 'the served contract (GET /public/v2/openapi.json) is unusable';
/** What the client says of the contract read that `contract_unavailable` fails (one attempt). */
const SERVER_ERROR =
  'API server error (500 internal_error, request_id req_00000001): GET /public/v2/openapi.json still failing: The contract could not be rendered; try again later';

describe('aivis check: drift from the bundled contract', () => {
  it('prints one line per change of a contract that declares more, and exits 0', async () => {
    const result = await run('check', [
      'contract_citation_fields',
      'contract_new_mention_field',
      'contract_new_metric',
      'contract_new_reason',
      'contract_type_change',
    ]);
    expect(result.code).toBe(0);
    const api = `API ${result.baseUrl}`;
    const reasonKeys = ['visibility', 'share_of_voice', 'sentiment', 'citation_share', 'average_mention_position'];
    const newReason = (prefix: string) =>
      reasonKeys.map((key) => `${prefix}.unavailable_reasons.${key}: enum_added - -> sentiment_sampling_paused`);
    expect(result.lines.slice(2, -1)).toEqual([
      `warn ${api}: the served contract differs from the bundled contract in 35 changes:`,
      ...newReason('analytics providers'),
      ...newReason('analytics meta'),
      'analytics metrics.recommendation_rate: added - -> float64',
      'analytics providers.metrics.recommendation_rate: added - -> float64',
      'analytics providers.unavailable_reasons.recommendation_rate: added - -> string',
      'analytics meta.metric_definition_versions.recommendation_rate: added - -> string',
      'analytics meta.unavailable_reasons.recommendation_rate: added - -> string',
      ...newReason('analytics_history meta'),
      'analytics_history metrics.recommendation_rate: added - -> float64',
      'analytics_history meta.metric_definition_versions.recommendation_rate: added - -> string',
      'analytics_history meta.unavailable_reasons.recommendation_rate: added - -> string',
      'mentions position_in_response: type_changed int64 -> float64',
      'mentions response_language: added - -> string',
      'citations id: added - -> string',
      'citations website_id: added - -> string',
      'citations analysis_id: added - -> string',
      'citations provider: added - -> string',
      'citations observed_at: added - -> timestamp',
      'citations available_at: added - -> timestamp',
      'citations url: added - -> string',
      'citations domain: added - -> string',
      'citations title: added - -> string',
      'citations rank: added - -> int64',
    ]);
  });

  it('exits 1 when the served contract removes a paging field of the list envelope', async () => {
    const result = await run('check', ['contract_drops_paging']);
    expect(result.code).toBe(1);
    expect(result.lines.slice(2, -1)).toEqual([
      `FAIL API ${result.baseUrl}: the served contract differs from the bundled contract in 4 changes, 4 of them removing what aivis cannot work without:`,
      'websites meta.next_cursor: removed string -> -',
      'analytics_history meta.next_cursor: removed string -> -',
      'mentions meta.next_cursor: removed string -> -',
      'citations meta.next_cursor: removed string -> -',
    ]);
  });

  it('warns about an unusable served contract and exits 0', async () => {
    const result = await run('check', ['contract_not_openapi']);
    expect(result.code).toBe(0);
    expect(result.lines[2]).toBe(
      `warn API ${result.baseUrl}: ${UNUSABLE}: it is not an OpenAPI 3.x document (openapi: missing); runs use the newest usable one kept in _aivis_contracts, else the bundled contract`,
    );
  });
});

describe('aivis sync: the document in force', () => {
  const fallbacks: [SandboxVariant, RegExp | string][] = [
    ['contract_unavailable', SERVER_ERROR],
    [
      'contract_truncated',
      // Half the bundled document's length, whatever it is.
      /^incomplete response \(no complete response, request_id none\): GET \/public\/v2\/openapi\.json: the 200 response body is not complete JSON \(\d+ characters\); check source\.base_url and the network, or try again later$/,
    ],
    ['contract_not_openapi', 'it is not an OpenAPI 3.x document (openapi: missing)'],
    [
      'contract_missing_paths',
      'it lacks GET /public/v2/websites/{website_id}/mentions with a 200 application/json response',
    ],
    [
      'contract_huge',
      'response too large (200, request_id req_00000001): GET /public/v2/openapi.json: the response body, read whole, is larger than 4194304 bytes, the most aivis holds of it (4 MiB); nothing of it was used',
    ],
  ];
  it.each(fallbacks)('%s: one warning naming why, the bundled contract in force, exit 0', async (variant, reason) => {
    const result = await run('sync', [variant]);
    expect(result.code).toBe(0);
    expect(result.warnings).toHaveLength(1);
    const [, said] =
      /^the served contract \(GET \/public\/v2\/openapi\.json\) is unusable: (.*); using the bundled contract$/.exec(
        result.warnings[0]!,
      )!;
    if (typeof reason === 'string') expect(said).toBe(reason);
    else expect(said).toMatch(reason);
    expect(await query(result.database, 'SELECT count(*)::INT AS n FROM aivis._aivis_contracts')).toEqual([{ n: 0 }]);
  });

  it.each(['contract_external_ref', 'contract_ref_cycle'] as const)(
    '%s: the document is used, its unresolvable fields untyped, exit 0',
    async (variant) => {
      const result = await run('sync', [variant]);
      expect(result.code).toBe(0);
      expect(result.warnings).toEqual([]);
      const changes = await query(result.database, 'SELECT changes FROM aivis._aivis_contracts');
      expect(changes).toHaveLength(1);
      // sentence_text's schema could not be followed: json instead of string.
      expect(JSON.parse(String(changes[0]!.changes))).toContainEqual({
        stream: 'mentions',
        field: 'sentence_text',
        change: 'type_changed',
        old: 'string',
        new: 'json',
      });
    },
  );

  it('loads a reason value the served contract declares (exit 0, nothing rejected), keeps the contract, and falls back to it later', async () => {
    const database = path.join(dir, 'kept.duckdb');
    const first = await run('sync', ['contract_new_reason'], database);
    expect(first.code).toBe(0);
    expect(first.warnings).toEqual([]);
    expect(first.stdout).toContain('  contract: 15 changes from the bundled contract (aivis check lists them)\n');
    expect(await query(database, 'SELECT count(*)::INT AS n FROM aivis._aivis_rejected')).toEqual([{ n: 0 }]);
    const loaded = await query(
      database,
      "SELECT count(*)::INT AS n FROM aivis.analytics_history WHERE unavailable_reasons::VARCHAR LIKE '%sentiment_sampling_paused%'",
    );
    expect(loaded[0]!.n).toBeGreaterThan(0);

    const served = JSON.parse(JSON.stringify(buildOpenApiDocument()));
    served.components.schemas.UnavailableReasons.additionalProperties.enum.push('sentiment_sampling_paused');
    const sha256 = createHash('sha256').update(JSON.stringify(served)).digest('hex');
    const kept = await query(
      database,
      'SELECT _workspace, sha256, first_run_id, json_array_length(changes)::INT AS changes FROM aivis._aivis_contracts',
    );
    const [runRow] = await query(
      database,
      "SELECT id, (counts->>'contract_changes')::INT AS contract_changes FROM aivis._aivis_runs",
    );
    expect(kept).toEqual([{ _workspace: 'default', sha256, first_run_id: runRow!.id, changes: 15 }]);
    expect(runRow!.contract_changes).toBe(15);

    // The same world, whose contract cannot be read now but whose records still use the new value.
    const later = await run('sync', ['contract_unavailable', 'undeclared_reason_value'], database);
    expect(later.code).toBe(0);
    expect(later.warnings).toEqual([
      `${UNUSABLE}: ${SERVER_ERROR}; using the newest usable one kept in _aivis_contracts (sha256 ${sha256.slice(0, 12)})`,
    ]);
    expect(await query(database, 'SELECT count(*)::INT AS n FROM aivis._aivis_rejected')).toEqual([{ n: 0 }]);
  });

  it('loads mentions whose position the served contract made a number: the int64 column NULL, _raw exact (exit 0)', async () => {
    const result = await run('sync', ['contract_type_change']);
    expect(result.code).toBe(0);
    expect(await query(result.database, 'SELECT count(*)::INT AS n FROM aivis._aivis_rejected')).toEqual([{ n: 0 }]);
    const [positions] = await query(
      result.database,
      `SELECT count(position_in_response)::INT AS typed,
              count(*) FILTER (WHERE (_raw->>'position_in_response') LIKE '%.5')::INT AS fractional
       FROM aivis.mentions`,
    );
    expect(positions!.typed).toBe(0);
    expect(positions!.fractional).toBeGreaterThan(0);
  });

  it('verify --repair writes the rows a sync would under a type-change contract: the variant column, the old one NULL', async () => {
    const database = path.join(dir, 'repair.duckdb');
    expect((await run('sync', ['contract_type_change'], database)).code).toBe(0);
    const positions = `SELECT id, position_in_response AS typed, position_in_response__float64 AS variant,
        (_raw->>'position_in_response')::DOUBLE AS raw FROM aivis.mentions`;
    const synced = await query(database, `${positions} ORDER BY id`);
    const lost = synced.slice(0, 3).map((row) => row.id as string);
    await query(database, `DELETE FROM aivis.mentions WHERE id IN (${lost.map((id) => `'${id}'`).join(', ')})`);

    const repair = await run('verify', ['contract_type_change'], database, [
      '--streams',
      'mentions',
      '--since',
      '2020-01-01T00:00:00Z',
      '--repair',
      '--json',
    ]);
    // Differences found (and repaired): exit 3, as docs/cli.md says of verify.
    expect({ code: repair.code, warnings: repair.warnings }).toEqual({ code: 3, warnings: [] });
    expect(JSON.parse(repair.lines[0]!)).toMatchObject({ stream: 'mentions', missing: 3, repaired: 3, extra: 0 });
    const repaired = await query(
      database,
      `${positions} WHERE id IN (${lost.map((id) => `'${id}'`).join(', ')}) ORDER BY id`,
    );
    expect(repaired).toEqual(synced.slice(0, 3));
    for (const row of repaired) {
      expect(row.typed).toBeNull();
      expect(row.variant).toBe(row.raw);
    }
    expect(repaired.some((row) => row.variant !== null)).toBe(true);
  });

  it('still rejects a reason value no contract declares (exit 3)', async () => {
    const result = await run('sync', ['undeclared_reason_value']);
    expect(result.code).toBe(3);
    const rejected = await query(
      result.database,
      'SELECT DISTINCT stream, error FROM aivis._aivis_rejected ORDER BY 1',
    );
    expect(rejected.length).toBeGreaterThan(0);
    for (const row of rejected) expect(row.error).toContain('(got "sentiment_sampling_paused")');
  });
});

/** The image's settings (Dockerfile): a hostile document must be read within its heap. */
const IMAGE_ENV = { NODE_ENV: 'production', NODE_OPTIONS: '--max-semi-space-size=1 --max-old-space-size=256' };

describe('hostile served contracts: one warning, the bundled contract in force, exit 0', () => {
  const hostile: [SandboxVariant, string][] = [
    ['contract_bad_pointer', 'its $ref "#/components/%E0%A4%A" is not a valid JSON pointer'],
    ['contract_ref_chain', 'its $ref "#/components/schemas/Chain0" starts a chain of more than 64 references'],
    ['contract_deep_nesting', 'it nests 3,006 levels deep, deeper than the 500 aivis reads'],
    ['contract_repeated_description', 'it dereferences to more than 16,777,216 characters'],
  ];
  it.each(hostile)('%s: sync and check', async (variant, reason) => {
    const synced = await run('sync', [variant], undefined, [], IMAGE_ENV);
    expect({ code: synced.code, warnings: synced.warnings }).toEqual({
      code: 0,
      warnings: [`${UNUSABLE}: ${reason}; using the bundled contract`],
    });
    const [runRow] = await query(
      synced.database,
      "SELECT status, (counts->>'contract_changes')::INT AS changes FROM aivis._aivis_runs",
    );
    expect(runRow).toEqual({ status: 'succeeded', changes: 0 });
    expect(await query(synced.database, 'SELECT count(*)::INT AS n FROM aivis._aivis_contracts')).toEqual([{ n: 0 }]);

    const checked = await run('check', [variant], undefined, [], IMAGE_ENV);
    expect(checked.code).toBe(0);
    expect(checked.lines[2]).toBe(
      `warn API ${checked.baseUrl}: ${UNUSABLE}: ${reason}; runs use the newest usable one kept in _aivis_contracts, else the bundled contract`,
    );
  });
});

describe('_aivis_contracts retention', () => {
  it('a sync keeps the 10 most recently seen documents of its workspace, its own among them; other workspaces untouched', async () => {
    const database = path.join(dir, 'retention.duckdb');
    expect((await run('sync', ['contract_new_reason'], database)).code).toBe(0);
    const old = (workspace: string, i: number) =>
      `('${workspace}', 'old${i}', TIMESTAMP '2026-01-01 00:00:00' + INTERVAL ${i} DAY, TIMESTAMP '2026-01-01 00:00:00' + INTERVAL ${i} DAY, 'run_old', '{}', '[]')`;
    const rows = [...Array.from({ length: 12 }, (_, i) => old('default', i)), old('other', 0), old('other', 1)];
    await query(database, `INSERT INTO aivis._aivis_contracts VALUES ${rows.join(', ')}`);

    expect((await run('sync', ['contract_new_reason'], database)).code).toBe(0);
    const kept = await query(
      database,
      'SELECT _workspace, sha256 FROM aivis._aivis_contracts ORDER BY _workspace, last_seen_at DESC',
    );
    const served = kept.find((row) => row._workspace === 'default' && !String(row.sha256).startsWith('old'));
    expect(served).toBeDefined();
    expect(kept.filter((row) => row._workspace === 'default').map((row) => row.sha256)).toEqual([
      served!.sha256,
      ...[11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => `old${i}`),
    ]);
    expect(kept.filter((row) => row._workspace === 'other').map((row) => row.sha256)).toEqual(['old1', 'old0']);
  });
});

describe('schema_evolution_max_columns', () => {
  it('a table gains at most that many evolved columns; the fields beyond stay in _raw with one warning naming them (exit 0)', async () => {
    const result = await run('sync', ['contract_citation_fields'], undefined, [], {}, [
      'schema_evolution_max_columns: 2',
    ]);
    expect(result.code).toBe(0);
    const evolution = result.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter((line) => line.level === 'warn' && line.msg.startsWith('schema evolution'))
      .map((line) => line.msg);
    expect(evolution).toEqual([
      'schema evolution: citations holds the most evolved columns allowed (schema_evolution_max_columns: 2); these fields stay in _raw: title, rank',
    ]);
    const columns = await query(
      result.database,
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'aivis' AND table_name = 'citations' AND column_name IN ('url', 'domain', 'title', 'rank') ORDER BY column_name",
    );
    expect(columns.map((row) => row.column_name)).toEqual(['domain', 'url']);
    const [raw] = await query(
      result.database,
      "SELECT count(*)::INT AS n, count(url)::INT AS urls, count(_raw->>'rank')::INT AS ranks FROM aivis.citations",
    );
    expect(raw!.n).toBeGreaterThan(0);
    expect(raw).toEqual({ n: raw!.n, urls: raw!.n, ranks: raw!.n });
  });
});
