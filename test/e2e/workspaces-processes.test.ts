/**
 * Three workspaces of one config synced into one Postgres schema by three `aivis sync
 * --workspace NAME` processes at once (an Airflow mapped task each): their locks are their
 * workspaces', so none waits for or refuses another, and each workspace equals its own truth.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runsTable } from '../../src/tables/index.ts';
import { uniqueSchema } from '../conformance/harness.ts';
import { runCli } from '../support/cli-process.ts';
import { jsonLines } from '../support/json-lines.ts';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { expectTruth, SANDBOX } from './sync-suite.ts';

const url = inject('postgresUrl');
const target = postgresTarget(url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-workspace-processes-'));
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

it('three processes, one workspace each, sync into one schema at once and each equals its own truth', async () => {
  const names = ['acme', 'globex', 'initech'];
  const sandboxes: Sandbox[] = [];
  const schema = uniqueSchema('wsp');
  try {
    for (const [i] of names.entries()) sandboxes.push(await startSandbox({ ...SANDBOX, seed: 7 + i }));
    const file = path.join(dir, 'workspaces.yaml');
    const lines = ['sources:'];
    for (const [i, name] of names.entries())
      lines.push(
        `  ${name}:`,
        `    base_url: ${sandboxes[i]!.baseUrl}`,
        `    api_key: \${AIVIS_KEY_${i}}`,
        '    requests_per_minute: 6000',
      );
    lines.push('destination:', '  type: postgres', '  url: ${AIVIS_E2E_DATABASE_URL}', `  schema: ${schema}`, '');
    writeFileSync(file, lines.join('\n'));
    const env = {
      AIVIS_E2E_DATABASE_URL: url,
      ...Object.fromEntries(sandboxes.map((s, i) => [`AIVIS_KEY_${i}`, s.apiKey])),
    };
    const results = await Promise.all(
      names.map((name) => runCli(['sync', '--workspace', name, '--config', file], env).done),
    );
    for (const [i, result] of results.entries()) {
      expect(result.code, result.stderr).toBe(0);
      expect(jsonLines(result.stderr).find((l) => l.msg === 'run finished')).toMatchObject({
        workspace: names[i],
        status: 'succeeded',
      });
    }
    const rows = (table: Parameters<typeof target.readRows>[2]) => target.readRows(undefined as never, schema, table);
    for (const [i, name] of names.entries()) await expectTruth(rows, sandboxes[i]!, name);
    expect((await rows(runsTable)).map((r) => [r._workspace, r.status]).sort()).toEqual(
      names.map((name) => [name, 'succeeded']),
    );
  } finally {
    for (const sandbox of sandboxes) await sandbox.close();
    await target.cleanup?.(schema);
  }
});
