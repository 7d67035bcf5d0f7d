/**
 * `npm run demo`: the whole product in one command, offline. Starts the sandbox in-process,
 * writes a config for it (`./aivis-demo.yaml`, kept so `aivis query` can read the file after),
 * runs the real `aivis sync` into `./aivis-demo.duckdb`, and prints the latest visibility of
 * each website from the synced tables (read with DuckDB itself: the demo's destination is
 * DuckDB by definition).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startSandbox } from '../src/sandbox/index.ts';
import { main } from '../src/cli/main.ts';

const DATABASE = path.resolve('aivis-demo.duckdb');
const CONFIG = path.resolve('aivis-demo.yaml');
const KEY_VARIABLE = 'AIVIS_DEMO_API_KEY';

async function demo(): Promise<number> {
  // The in-process sandbox's data clock is pinned (2026-01-01): the demo prints the same table every run.
  const sandbox = await startSandbox({ seed: 42, websites: 8 });
  try {
    await writeFile(
      CONFIG,
      [
        'source:',
        `  base_url: ${sandbox.baseUrl}`,
        `  api_key: \${${KEY_VARIABLE}}`,
        'destination:',
        '  type: duckdb',
        `  path: ${DATABASE}`,
        '  schema: aivis',
        '',
      ].join('\n'),
    );
    process.env[KEY_VARIABLE] = sandbox.apiKey;
    process.stdout.write(`sandbox of the V2 API at ${sandbox.baseUrl}; syncing into ${DATABASE}\n\n`);
    const code = await main(['sync', '--config', CONFIG]);
    if (code !== 0 && code !== 3) return code;
    process.stdout.write('\nlatest visibility per website (aivis.analytics_latest joined to aivis.websites):\n');
    process.stdout.write(`${await latestVisibility()}\n`);
    // Said where the results are: `aivis status` on this file counts ages from this machine's
    // clock, and calls data pinned at the sandbox's start stale.
    process.stdout.write(
      `\nthe sandbox's data clock is pinned at ${sandbox.clock.now()} (the same rows every run): the data is as of then, ` +
        "so aivis status on this file, which measures age by this machine's clock, calls it stale\n",
    );
    process.stdout.write(
      `\nquery it yourself: npx aivis query --config ${path.basename(CONFIG)} "select id, domain_url from aivis.websites"\n`,
    );
    return code;
  } finally {
    await sandbox.close();
  }
}

async function latestVisibility(): Promise<string> {
  const instance = await DuckDBInstance.create(DATABASE);
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(`
      SELECT w.domain_url, a.website_id IS NOT NULL AS measured, a.visibility, a.share_of_voice, strftime(a.as_of, '%Y-%m-%d') AS as_of,
             a.is_partial, a.projection_version
      FROM aivis.websites w LEFT JOIN aivis.analytics_latest a ON a.website_id = w.id
      WHERE w._removed_at IS NULL
      ORDER BY a.visibility DESC NULLS LAST, w.domain_url`);
    const rows = reader.getRowObjectsJS();
    const header = ['website', 'visibility', 'share of voice', 'as of', 'partial', 'projection'];
    const cells = rows.map((r) => [
      String(r.domain_url),
      // NULL metric of a published snapshot: measured, but the metric is unavailable (see unavailable_reasons).
      !r.measured ? 'not measured' : r.visibility === null ? 'unavailable' : Number(r.visibility).toFixed(1),
      r.share_of_voice === null ? '-' : Number(r.share_of_voice).toFixed(1),
      String(r.as_of ?? '-'),
      r.is_partial === null ? '-' : r.is_partial ? 'yes' : 'no',
      String(r.projection_version ?? '-'),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ');
    return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

demo().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
