/** `sources:`: workspaces by name, each with the keys and the secret rules of `source:`. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { clearSecrets, redact } from '../../src/log/redact.ts';
import { configErrorLines, writeConfig, yaml } from './config-files.ts';

const ACME_KEY = 'sk_live_acme_1a2b3c4d';
const GLOBEX_KEY = 'sk_live_globex_5e6f7a8b';

beforeEach(() => clearSecrets());

describe('loadConfig: sources', () => {
  it('gives each workspace its settings and its key, sorted by name, file paths beside the config', async () => {
    const file = await writeConfig(yaml`
      sources:
        globex:
          base_url: https://api.example.com
          api_key_file: ./globex-key
          requests_per_minute: 40
        acme-eu:
          base_url: https://eu.api.example.com
          api_key: \${AIVIS_API_KEY_ACME_EU}
          timeout_seconds: 30
          max_retries: 2
          retry_budget_seconds: 120
    `);
    const dir = path.dirname(file);
    await writeFile(path.join(dir, 'globex-key'), `${GLOBEX_KEY}\n`, { mode: 0o600 });
    const loaded = await loadConfig(file, { AIVIS_API_KEY_ACME_EU: ACME_KEY });
    expect(loaded.config.source).toBeUndefined();
    expect(loaded.workspaces).toEqual([
      {
        name: 'acme-eu',
        apiKey: ACME_KEY,
        source: {
          base_url: 'https://eu.api.example.com',
          api_key: ACME_KEY,
          requests_per_minute: 90,
          timeout_seconds: 30,
          max_retries: 2,
          retry_budget_seconds: 120,
        },
      },
      {
        name: 'globex',
        apiKey: GLOBEX_KEY,
        source: {
          base_url: 'https://api.example.com',
          api_key_file: path.join(dir, 'globex-key'),
          requests_per_minute: 40,
          timeout_seconds: 60,
          max_retries: 6,
          retry_budget_seconds: 600,
        },
      },
    ]);
    expect(redact(`${ACME_KEY} ${GLOBEX_KEY}`)).toBe('[REDACTED] [REDACTED]');
  });

  it('names the one workspace of source: default', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
    `);
    const loaded = await loadConfig(file, { AIVIS_API_KEY: ACME_KEY });
    expect(loaded.workspaces.map((w) => [w.name, w.apiKey])).toEqual([['default', ACME_KEY]]);
  });

  it('refuses a literal key in any workspace, through an alias too, naming the variable to use', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        sources:
          acme:
            base_url: https://api.example.com
            api_key: &k ${ACME_KEY}
          globex-us:
            base_url: https://api.example.com
            api_key: *k
          initech:
            base_url: https://api.example.com
            api_key: \${AIVIS_API_KEY_INITECH}
      `,
      { AIVIS_API_KEY_INITECH: GLOBEX_KEY },
    );
    const refusal = (line: number, where: string, variable: string) =>
      `${file}:${line}: ${where} is written into the config file, and secrets are never read from the YAML text: put the key in an environment variable and write api_key: \${${variable}}, or point api_key_file at a file that holds it`;
    expect(lines).toEqual([
      refusal(4, 'sources.acme.api_key', 'AIVIS_API_KEY_ACME'),
      refusal(7, 'sources["globex-us"].api_key', 'AIVIS_API_KEY_GLOBEX_US'),
    ]);
    expect(redact(`${ACME_KEY} ${GLOBEX_KEY}`)).toBe('[REDACTED] [REDACTED]');
  });

  it("reports a workspace's missing variable and unreadable key file at their lines", async () => {
    const { file, lines } = await configErrorLines(yaml`
      sources:
        acme:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY_ACME}
        globex:
          base_url: https://api.example.com
          api_key_file: /nonexistent/globex-key
    `);
    expect(lines).toEqual([
      `${file}:4: sources.acme.api_key refers to \${AIVIS_API_KEY_ACME}, which is not set in the environment`,
      `${file}:7: sources.globex.api_key_file /nonexistent/globex-key cannot be read (no such file)`,
    ]);
  });

  it('checks each workspace like source: its keys, its numbers, http:// beside its own flag', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        sources:
          acme:
            base_url: http://api.example.com
            api_key: \${KEY}
            requests_per_min: 60
          globex:
            base_url: http://api.internal:8080
            allow_insecure_http: true
            api_key: \${KEY}
            requests_per_minute: 0
          initech:
            base_url: https://api.example.com
      `,
      { KEY: ACME_KEY },
    );
    expect(lines).toEqual([
      `${file}:3: sources.acme.base_url: http:// would send the API key in clear to api.example.com; use https://, or set sources.acme.allow_insecure_http: true if every hop to that host is trusted`,
      `${file}:5: unknown key "requests_per_min" in sources.acme, did you mean "requests_per_minute"? (allowed: base_url, allow_insecure_http, api_key, api_key_file, requests_per_minute, timeout_seconds, max_retries, retry_budget_seconds, skip_unchanged, sweep_every, settle_for)`,
      `${file}:10: sources.globex.requests_per_minute must be a whole number from 1 to 6000 (got 0)`,
      `${file}:11: sources.initech: give exactly one of api_key (as \${VAR}) or api_key_file`,
    ]);
  });

  it('refuses a workspace name that could not stand in a column, a state scope or a log line', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        sources:
          Acme Corp:
            base_url: https://api.example.com
            api_key: \${KEY}
          -lead:
            base_url: https://api.example.com
            api_key: \${KEY}
      `,
      { KEY: ACME_KEY },
    );
    const rule =
      'must be lowercase letters, digits, "_" and "-", starting with a letter or digit, at most 64 characters';
    expect(lines).toEqual([
      `${file}:2: sources names the workspace "Acme Corp", whose name ${rule}`,
      `${file}:5: sources names the workspace "-lead", whose name ${rule}`,
    ]);
  });

  it('wants exactly one of source and sources, and at least one workspace', async () => {
    const source = 'source:\n  base_url: https://api.example.com\n  api_key: ${KEY}\n';
    const sources = 'sources:\n  acme:\n    base_url: https://api.example.com\n    api_key: ${KEY}\n';
    const both = await configErrorLines(source + sources, { KEY: ACME_KEY });
    expect(both.lines).toEqual([
      `${both.file}:4: sources: give exactly one of source (one workspace, named default) or sources (workspaces by name), not both`,
    ]);
    const neither = await configErrorLines('destination:\n  type: duckdb\n');
    expect(neither.lines).toEqual([
      `${neither.file}:1: give exactly one of source (one workspace, named default) or sources (workspaces by name)`,
    ]);
    const none = await configErrorLines('sources: {}\n');
    expect(none.lines).toEqual([`${none.file}:1: sources: name at least one workspace`]);
  });
});
