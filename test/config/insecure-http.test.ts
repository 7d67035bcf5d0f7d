/**
 * Plain `http://` carries every secret in clear: refused for any host that is not loopback,
 * unless `allow_insecure_http: true` sits in the same block as the URL. Exit 2, the URL's key
 * named with its line.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { configErrorLines, writeConfig, yaml } from './config-files.ts';

const env = { AIVIS_API_KEY: 'sk_test_http_key', SF_PASSWORD: 'sf-secret-pw' };
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A source block; `extra` lines go inside it. */
const source = (baseUrl: string, ...extra: string[]) =>
  ['source:', `  base_url: ${baseUrl}`, ...extra.map((line) => `  ${line}`), '  api_key: ${AIVIS_API_KEY}', ''].join(
    '\n',
  );

describe('http:// URLs', () => {
  it('refuses source.base_url over http:// to another host, naming the key and the host', async () => {
    const { file, lines } = await configErrorLines(source('http://api.example.com'), env);
    expect(lines).toEqual([
      `${file}:2: source.base_url: http:// would send the API key in clear to api.example.com; use https://, or set source.allow_insecure_http: true if every hop to that host is trusted`,
    ]);
  });

  it('names the port too, and refuses private addresses like any other host', async () => {
    const { file, lines } = await configErrorLines(source('http://10.1.2.3:8080'), env);
    expect(lines).toEqual([
      `${file}:2: source.base_url: http:// would send the API key in clear to 10.1.2.3:8080; use https://, or set source.allow_insecure_http: true if every hop to that host is trusted`,
    ]);
  });

  it('accepts http:// to loopback: 127.0.0.0/8, localhost and ::1', async () => {
    for (const url of ['http://127.0.0.1:4010', 'http://127.9.9.9', 'http://localhost:4010', 'http://[::1]:4010']) {
      const { config } = await loadConfig(await writeConfig(source(url)), env);
      expect(config.source?.base_url, url).toBe(url);
    }
  });

  it('accepts http:// to another host when allow_insecure_http: true sits beside base_url', async () => {
    const { config } = await loadConfig(
      await writeConfig(source('http://api.internal:8080', 'allow_insecure_http: true')),
      env,
    );
    expect(config.source).toMatchObject({ base_url: 'http://api.internal:8080', allow_insecure_http: true });
  });

  it('still refuses when allow_insecure_http is false', async () => {
    const { file, lines } = await configErrorLines(source('http://api.example.com', 'allow_insecure_http: false'), env);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^${file}:2: source.base_url: http:// would send the API key in clear to api.example.com;`),
      ),
    ]);
  });

  it('refuses a Snowflake access_url over http://; the source flag does not cover it', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: http://api.internal
          allow_insecure_http: true
          api_key: \${AIVIS_API_KEY}
        destination:
          type: snowflake
          account: xy12345
          username: LOADER
          password: \${SF_PASSWORD}
          warehouse: LOAD_WH
          database: RAW
          access_url: http://xy12345.privatelink.example.com
      `,
      env,
    );
    expect(lines).toEqual([
      `${file}:12: destination.access_url: http:// would send the Snowflake login and the rows in clear to xy12345.privatelink.example.com; use https://, or set destination.allow_insecure_http: true if every hop to that host is trusted`,
    ]);
  });

  it('refuses a BigQuery api_endpoint over http://, and accepts it with the flag in the destination block', async () => {
    const bigquery = (...extra: string[]) =>
      [
        `${source('https://api.example.com')}destination:`,
        '  type: bigquery',
        '  project: my-project',
        '  api_endpoint: http://bigquery.proxy.internal:9050',
        ...extra,
        '',
      ].join('\n');
    const { file, lines } = await configErrorLines(bigquery(), env);
    expect(lines).toEqual([
      `${file}:7: destination.api_endpoint: http:// would send the Google access token and the rows in clear to bigquery.proxy.internal:9050; use https://, or set destination.allow_insecure_http: true if every hop to that host is trusted`,
    ]);
    const { config } = await loadConfig(await writeConfig(bigquery('  allow_insecure_http: true')), env);
    expect(config.destination).toMatchObject({
      api_endpoint: 'http://bigquery.proxy.internal:9050',
      allow_insecure_http: true,
    });
  });

  it('makes the CLI exit 2 before any request', async () => {
    const file = await writeConfig(source('http://api.example.com'));
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', 'check', '--config', file],
        { cwd: ROOT, env: { ...process.env, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
    expect({ ...result, stderr: jsonLines(result.stderr) }).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        failureLine(
          `${file}:2: source.base_url: http:// would send the API key in clear to api.example.com; use https://, or set source.allow_insecure_http: true if every hop to that host is trusted`,
          2,
        ),
      ],
    });
  });
});
