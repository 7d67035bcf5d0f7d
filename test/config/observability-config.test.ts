/**
 * The `openlineage:` and `metrics:` blocks and the ecosystem's OPENLINEAGE_* variables: the
 * lineage API key is a secret like any other (from the environment or a file, never the YAML
 * text, always redacted), relative paths resolve against the config's folder, and a wrong
 * setting is a config error (exit 2) naming what to fix.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { ConfigError } from '../../src/errors.ts';
import { lineageSettings } from '../../src/lineage/lineage-settings.ts';
import { clearSecrets, redact } from '../../src/log/redact.ts';
import { configErrorLines, tempDir, yaml } from './config-files.ts';

const LINEAGE_KEY = 'olk_3b9a72e1f0c4';
const SOURCE = yaml`
  source:
    base_url: https://api.example.com
    api_key: \${AIVIS_API_KEY}
`;
const ENV = { AIVIS_API_KEY: 'k_api_1234567' };

beforeEach(() => clearSecrets());

async function load(text: string, env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}) {
  const dir = await tempDir();
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content, { mode: 0o600 });
  const file = path.join(dir, 'config.yaml');
  await writeFile(file, text);
  return { dir, loaded: await loadConfig(file, { ...ENV, ...env }) };
}

describe('openlineage: block', () => {
  it('refuses a literal apiKey, says how to fix it, and never prints the key', async () => {
    const { file, lines } = await configErrorLines(
      `${SOURCE}openlineage:\n  transport:\n    type: http\n    url: https://marquez.example.com\n    auth: { type: api_key, apiKey: ${LINEAGE_KEY} }\n`,
      ENV,
    );
    expect(lines).toEqual([
      `${file}:8: openlineage.transport.auth.apiKey is written into the config file, and secrets are never read from the YAML text: put the key in an environment variable and write apiKey: \${OPENLINEAGE_API_KEY}, or point apiKeyFile at a file that holds it`,
    ]);
    expect(redact(`sent ${LINEAGE_KEY}`)).toBe('sent [REDACTED]');
  });

  it('reads the key from ${VAR} or from apiKeyFile (relative to the config), and registers it for redaction', async () => {
    const http = (auth: string) =>
      `${SOURCE}openlineage:\n  namespace: team-data\n  transport:\n    type: http\n    url: https://marquez.example.com/\n    endpoint: /api/v1/lineage\n    auth: ${auth}\n`;
    const fromEnv = await load(http('{ type: api_key, apiKey: "${OPENLINEAGE_API_KEY}" }'), {
      OPENLINEAGE_API_KEY: LINEAGE_KEY,
    });
    expect(lineageSettings(fromEnv.loaded, {})).toEqual({
      namespace: 'team-data',
      target: {
        type: 'http',
        url: new URL('https://marquez.example.com/api/v1/lineage'),
        timeoutMs: 5000,
        apiKey: LINEAGE_KEY,
      },
    });
    clearSecrets();
    const fromFile = await load(http('{ type: api_key, apiKeyFile: ol-key }'), {}, { 'ol-key': `${LINEAGE_KEY}\n` });
    expect(fromFile.loaded.lineageApiKey).toBe(LINEAGE_KEY);
    expect(redact(LINEAGE_KEY)).toBe('[REDACTED]');
  });

  it('resolves the file transport path against the config folder; console needs nothing', async () => {
    const file = await load(`${SOURCE}openlineage:\n  transport: { type: file, path: ./lineage.jsonl }\n`);
    expect(lineageSettings(file.loaded, {})).toEqual({
      namespace: 'aivis',
      target: { type: 'file', path: path.join(file.dir, 'lineage.jsonl') },
    });
    const console = await load(`${SOURCE}openlineage:\n  transport: { type: console }\n`);
    expect(lineageSettings(console.loaded, { OPENLINEAGE_NAMESPACE: 'ns' })).toEqual({
      namespace: 'ns',
      target: { type: 'console' },
    });
  });

  it('refuses http:// to another host, an unknown transport and a missing url, each with its line', async () => {
    const { file, lines } = await configErrorLines(
      `${SOURCE}openlineage:\n  transport: { type: http, url: "http://marquez.internal:5000" }\n`,
      ENV,
    );
    expect(lines).toEqual([
      `${file}:5: openlineage.transport.url: http:// would send the lineage API key and events in clear to marquez.internal:5000; use https://, or set openlineage.transport.allow_insecure_http: true if every hop to that host is trusted`,
    ]);
    const unknown = await configErrorLines(`${SOURCE}openlineage:\n  transport: { type: kafka }\n`, ENV);
    expect(unknown.lines.join('\n')).toMatch(/openlineage\.transport\.type.*http.*file.*console/);
  });
});

describe('OPENLINEAGE_* variables (no openlineage: block)', () => {
  it('configure an http transport the way the OpenLineage clients read them', async () => {
    const { loaded } = await load(SOURCE);
    expect(lineageSettings(loaded, {})).toBeUndefined();
    expect(
      lineageSettings(loaded, { OPENLINEAGE_URL: 'http://marquez:5000', OPENLINEAGE_API_KEY: ` ${LINEAGE_KEY}\n` }),
    ).toEqual({
      namespace: 'aivis',
      target: {
        type: 'http',
        url: new URL('http://marquez:5000/api/v1/lineage'),
        timeoutMs: 5000,
        apiKey: LINEAGE_KEY,
      },
    });
    expect(redact(LINEAGE_KEY)).toBe('[REDACTED]');
    expect(
      lineageSettings(loaded, {
        OPENLINEAGE_URL: 'https://lineage.example.com/base',
        OPENLINEAGE_ENDPOINT: 'events',
        OPENLINEAGE_NAMESPACE: 'prod',
      }),
    ).toEqual({
      namespace: 'prod',
      target: { type: 'http', url: new URL('https://lineage.example.com/base/events'), timeoutMs: 5000 },
    });
  });

  it('OPENLINEAGE_DISABLED turns off even a configured block; a URL that is not http(s) is a config error', async () => {
    const { loaded } = await load(`${SOURCE}openlineage:\n  transport: { type: console }\n`);
    expect(lineageSettings(loaded, { OPENLINEAGE_DISABLED: 'true' })).toBeUndefined();
    const plain = await load(SOURCE);
    const error = (() => {
      try {
        lineageSettings(plain.loaded, { OPENLINEAGE_URL: 'marquez:5000' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      'OPENLINEAGE_URL "marquez:5000" is not an http(s) URL such as https://marquez.example.com',
    );
  });
});

describe('metrics: block', () => {
  it('takes a pushgateway URL (may be ${VAR}) and a .prom textfile relative to the config', async () => {
    const { dir, loaded } = await load(
      `${SOURCE}metrics:\n  pushgateway: \${PUSHGATEWAY_URL}\n  textfile: metrics/aivis.prom\n`,
      { PUSHGATEWAY_URL: 'http://pushgateway:9091' },
    );
    expect(loaded.config.metrics).toEqual({
      pushgateway: 'http://pushgateway:9091',
      textfile: path.join(dir, 'metrics', 'aivis.prom'),
    });
  });

  it("registers a Pushgateway URL's basic-auth password for redaction", async () => {
    await load(`${SOURCE}metrics:\n  pushgateway: \${PUSHGATEWAY_URL}\n`, {
      PUSHGATEWAY_URL: 'https://aivis:gw-pass-93c1@pushgateway.example.com',
    });
    expect(redact('push to https://aivis:gw-pass-93c1@pushgateway.example.com failed')).not.toContain('gw-pass-93c1');
  });

  it('refuses an empty block and a textfile the collector would not read', async () => {
    const empty = await configErrorLines(`${SOURCE}metrics: {}\n`, ENV);
    expect(empty.lines).toEqual([`${empty.file}:4: metrics: name pushgateway, textfile or both`]);
    const txt = await configErrorLines(`${SOURCE}metrics:\n  textfile: aivis.txt\n`, ENV);
    expect(txt.lines).toEqual([
      `${txt.file}:5: metrics.textfile must end in .prom (node_exporter's textfile collector reads only *.prom files) (got "aivis.txt")`,
    ]);
  });
});
