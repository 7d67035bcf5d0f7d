/** Secrets: never read from the YAML text, never printed, always registered for redaction. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/log/logger.ts';
import { clearSecrets, redact } from '../../src/log/redact.ts';
import { configErrorLines, tempDir, writeConfig, yaml } from './config-files.ts';

const API_KEY = 'sk_live_9f8e7d6c5b4a';

beforeEach(() => clearSecrets());

/** A Snowflake config with key-pair auth, its passphrase from `${SNOWFLAKE_KEY_PASSPHRASE}`; `extra` is appended. */
const snowflake = (extra = '') => yaml`
  source:
    base_url: https://api.example.com
    api_key: \${AIVIS_API_KEY}
  destination:
    type: snowflake
    account: xy12345
    username: LOADER
    private_key_file: rsa_key.p8
    private_key_passphrase: \${SNOWFLAKE_KEY_PASSPHRASE}
    warehouse: WH
    database: DB
  ${extra}
`;

describe('loadConfig: secrets are never read from the YAML text', () => {
  it('refuses a literal api_key, says how to fix it, and never prints the key', async () => {
    const { file, lines } = await configErrorLines(yaml`
      source:
        base_url: https://api.example.com
        api_key: ${API_KEY}
    `);
    expect(lines).toEqual([
      `${file}:3: source.api_key is written into the config file, and secrets are never read from the YAML text: put the key in an environment variable and write api_key: \${AIVIS_API_KEY}, or point api_key_file at a file that holds it`,
    ]);
    expect(redact(`leaked ${API_KEY}`)).toBe('leaked [REDACTED]');
  });

  it('refuses a literal Snowflake password and passphrase', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
        destination:
          type: snowflake
          account: xy12345
          username: LOADER
          password: "hunter2-snow"
          private_key_passphrase: 'open-sesame-9'
          warehouse: WH
          database: DB
      `,
      { AIVIS_API_KEY: API_KEY },
    );
    expect(lines).toEqual([
      `${file}:8: destination.password is written into the config file, and secrets are never read from the YAML text: put it in an environment variable and write password: \${SNOWFLAKE_PASSWORD}`,
      `${file}:9: destination.private_key_passphrase is written into the config file, and secrets are never read from the YAML text: put it in an environment variable and write private_key_passphrase: \${SNOWFLAKE_PRIVATE_KEY_PASSPHRASE}`,
    ]);
    expect(lines.join('\n')).not.toMatch(/hunter2-snow|open-sesame-9/);
  });

  it('refuses a Postgres URL with a literal password, in the userinfo or the query', async () => {
    for (const url of [
      'postgres://aivis:pg%40pass-1@db:5432/warehouse',
      'postgres://db/warehouse?user=aivis&password=pg-pass-2',
    ]) {
      const { file, lines } = await configErrorLines(
        yaml`
          source:
            base_url: https://api.example.com
            api_key: \${AIVIS_API_KEY}
          destination:
            type: postgres
            url: ${url}
        `,
        { AIVIS_API_KEY: API_KEY },
      );
      expect(lines).toEqual([
        `${file}:6: destination.url holds a password, and secrets are never read from the YAML text: put the whole URL in an environment variable and write url: \${DATABASE_URL}`,
      ]);
    }
    expect(redact('pg@pass-1 pg%40pass-1 pg-pass-2')).toBe('[REDACTED] [REDACTED] [REDACTED]');
  });

  it('accepts a URL whose password part is a ${VAR}, and registers what it resolves to', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
      destination:
        type: postgres
        url: postgres://aivis:\${PGPASSWORD}@db:5432/warehouse
    `);
    const { config } = await loadConfig(file, { AIVIS_API_KEY: API_KEY, PGPASSWORD: 'p%2Fg-secret' });
    expect(config.destination).toEqual({
      type: 'postgres',
      url: 'postgres://aivis:p%2Fg-secret@db:5432/warehouse',
      schema: 'aivis',
    });
    expect(redact('p%2Fg-secret p/g-secret')).toBe('[REDACTED] [REDACTED]');
  });
});

describe('loadConfig: a secret made of digits stays text', () => {
  it('keeps the key and the passphrase as written (leading zeros too) and registers them', async () => {
    const file = await writeConfig(snowflake());
    const loaded = await loadConfig(file, { AIVIS_API_KEY: '0012345678', SNOWFLAKE_KEY_PASSPHRASE: '00482913' });
    expect(loaded.workspaces[0]?.apiKey).toBe('0012345678');
    expect(loaded.config.destination).toMatchObject({ type: 'snowflake', private_key_passphrase: '00482913' });
    expect(redact('key 0012345678, passphrase 00482913')).toBe('key [REDACTED], passphrase [REDACTED]');
  });

  it('never prints it in an error about another key', async () => {
    const { file, lines } = await configErrorLines(snowflake('streams: { mention: {} }'), {
      AIVIS_API_KEY: '0012345678',
      SNOWFLAKE_KEY_PASSPHRASE: '00482913',
    });
    expect(lines).toEqual([
      `${file}:12: unknown key "mention" in streams, did you mean "mentions"? (allowed: websites, analytics, analytics_history, mentions, citations)`,
    ]);
  });

  it('types a ${VAR} of digits under any other key as a number', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
        requests_per_minute: \${AIVIS_RPM}
    `);
    const loaded = await loadConfig(file, { AIVIS_API_KEY: '0012345678', AIVIS_RPM: '060' });
    expect(loaded.config.source?.requests_per_minute).toBe(60);
  });
});

describe('loadConfig: a YAML alias is no way around the rule', () => {
  it('refuses api_key: *k when the anchor holds a literal key', async () => {
    const { file, lines } = await configErrorLines(yaml`
      destination:
        type: duckdb
        path: &k ${API_KEY}
      source:
        base_url: https://api.example.com
        api_key: *k
    `);
    expect(lines).toEqual([
      `${file}:6: source.api_key is written into the config file, and secrets are never read from the YAML text: put the key in an environment variable and write api_key: \${AIVIS_API_KEY}, or point api_key_file at a file that holds it`,
    ]);
    expect(redact(API_KEY)).toBe('[REDACTED]');
  });

  it('accepts an alias of a ${VAR}, which stays text', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: &key \${AIVIS_API_KEY}
      destination:
        type: snowflake
        account: xy12345
        username: LOADER
        password: *key
        warehouse: WH
        database: DB
    `);
    const loaded = await loadConfig(file, { AIVIS_API_KEY: '0012345678' });
    expect(loaded.config.destination).toMatchObject({ password: '0012345678' });
  });
});

describe('loadConfig: every secret is registered for redaction', () => {
  it('registers the key from the environment, the Snowflake password and passphrase', async () => {
    const file = await writeConfig(snowflake());
    const loaded = await loadConfig(file, { AIVIS_API_KEY: API_KEY, SNOWFLAKE_KEY_PASSPHRASE: 'passphrase-x1' });
    expect(loaded.workspaces[0]?.apiKey).toBe(API_KEY);
    expect(redact(`${API_KEY} passphrase-x1`)).toBe('[REDACTED] [REDACTED]');
  });

  it('trims the key from the environment (a Secret made from a file ends in a newline) and masks both forms', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
    `);
    const loaded = await loadConfig(file, { AIVIS_API_KEY: `${API_KEY}\n` });
    expect(loaded.workspaces[0]?.apiKey).toBe(API_KEY);
    expect(redact(`Bearer-less ${API_KEY}.`)).toBe('Bearer-less [REDACTED].');
    const blank = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
      `,
      { AIVIS_API_KEY: ' \n' },
    );
    expect(blank.lines).toEqual([
      `${blank.file}:3: source.api_key refers to \${AIVIS_API_KEY}, which is set but empty`,
    ]);
  });

  it('redacts the key wherever a mistake puts it, even in a value quoted back', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: \${AIVIS_API_KEY}
          api_key: \${AIVIS_API_KEY}
      `,
      { AIVIS_API_KEY: API_KEY },
    );
    expect(lines).toEqual([
      `${file}:2: source.base_url must be an http(s) URL such as https://api.example.com (got "[REDACTED]")`,
    ]);
  });

  it('masks the password of a database URL put under the wrong key, before the value is cut short', async () => {
    const env = { AIVIS_API_KEY: API_KEY, DATABASE_URL: 'postgres://loader:pa55-w0rd@127.0.0.1:5432/warehouse' };
    const wrongKey = await configErrorLines(
      yaml`
        source:
          base_url: \${DATABASE_URL}
          api_key: \${AIVIS_API_KEY}
      `,
      env,
    );
    expect(wrongKey.lines).toEqual([
      `${wrongKey.file}:2: source.base_url must be an http(s) URL such as https://api.example.com (got "postgres://loader:[REDACTED]@127.0.0.1:5"... (53 characters))`,
    ]);
    const misindented = await configErrorLines(
      yaml`
        sources:
          one:
            base_url: https://api.example.com
            api_key: \${AIVIS_API_KEY}
          destination:
            type: postgres
            url: \${DATABASE_URL}
      `,
      env,
    );
    expect(misindented.lines.join('\n')).not.toContain('pa55');
    expect(redact(`could not reach ${env.DATABASE_URL}`)).toBe(
      'could not reach postgres://loader:[REDACTED]@127.0.0.1:5432/warehouse',
    );
  });
});

describe('loadConfig: api_key_file', () => {
  it('reads the key from a file beside the config, trimmed, and registers it', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key_file: ./api-key
    `);
    await writeFile(path.join(path.dirname(file), 'api-key'), `${API_KEY}\n`, { mode: 0o600 });
    const loaded = await loadConfig(file, {});
    expect(loaded.workspaces[0]?.apiKey).toBe(API_KEY);
    expect(loaded.config.source).toEqual({
      base_url: 'https://api.example.com',
      api_key_file: path.join(path.dirname(file), 'api-key'),
      requests_per_minute: 90,
      timeout_seconds: 60,
      max_retries: 6,
      retry_budget_seconds: 600,
    });
    expect(redact(API_KEY)).toBe('[REDACTED]');
  });

  it('warns when every user can read the key file, not when only its owner and group can', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key_file: ./api-key
    `);
    const keyFile = path.join(path.dirname(file), 'api-key');
    await writeFile(keyFile, `${API_KEY}\n`);
    const warnings = async (mode: number) => {
      await chmod(keyFile, mode);
      const lines: string[] = [];
      await loadConfig(file, {}, createLogger({ json: true, write: (line) => lines.push(line) }));
      return lines.map((line) => JSON.parse(line) as { level: string; msg: string });
    };
    expect(await warnings(0o644)).toEqual([
      {
        ts: expect.any(String),
        level: 'warn',
        msg: `source.api_key_file ${keyFile} is readable by every user of this machine (mode 0644): chmod o-r it (600 or 400), or mount the Secret with defaultMode 0400 (0440 with fsGroup)`,
      },
    ]);
    expect(await warnings(0o604)).toHaveLength(1);
    expect(await warnings(0o600)).toEqual([]);
    expect(await warnings(0o440)).toEqual([]);
  });

  it('names a key file that is missing, empty or a folder', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'empty-key'), ' \n\n');
    await mkdir(path.join(dir, 'key-folder'));
    const cases = [
      ['missing-key', 'cannot be read (no such file)'],
      ['empty-key', 'is empty; it must hold the API key'],
      ['key-folder', 'cannot be read (it is a folder, not a file)'],
    ] as const;
    for (const [name, problem] of cases) {
      const keyFile = path.join(dir, name);
      const { file, lines } = await configErrorLines(yaml`
        source:
          base_url: https://api.example.com
          api_key_file: ${keyFile}
      `);
      expect(lines).toEqual([`${file}:3: source.api_key_file ${keyFile} ${problem}`]);
    }
  });

  it('refuses api_key and api_key_file together', async () => {
    const file = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
        api_key_file: ./api-key
    `);
    await writeFile(path.join(path.dirname(file), 'api-key'), 'sk_other_key_1234', { mode: 0o600 });
    await expect(loadConfig(file, { AIVIS_API_KEY: API_KEY })).rejects.toThrow(
      `${file}:1: source: give exactly one of api_key (as \${VAR}) or api_key_file`,
    );
  });
});
