/** Bad configs: each problem named with file, line and the words that say how to fix it. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { ConfigError } from '../../src/errors.ts';
import { configErrorLines, yaml } from './config-files.ts';

const env = { AIVIS_API_KEY: 'sk_test_errors_key', DATABASE_URL: 'postgres://aivis@db/warehouse' };

describe('loadConfig: schema issues in plain words', () => {
  it('reports every issue at once, sorted by line, one per line', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          requests_per_minute: 0
          api_key: \${AIVIS_API_KEY}
        destination:
          type: postgres
          url: \${DATABASE_URL}
          schema: aivis
          stream: x
      `,
      env,
    );
    expect(lines).toEqual([
      `${file}:3: source.requests_per_minute must be a whole number from 1 to 6000 (got 0)`,
      `${file}:9: unknown key "stream" in destination (allowed: type, url, schema)`,
    ]);
  });

  it('says a section that takes no keys takes none, not an empty list of allowed ones', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
        destination:
          type: duckdb
        streams:
          websites:
            providers: [chatgpt]
      `,
      env,
    );
    expect(lines).toEqual([`${file}:8: unknown key "providers" in streams.websites, which takes no keys`]);
  });

  it('names the allowed destination types', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
        # the warehouse
        destination:
          type: mysql
      `,
      env,
    );
    expect(lines).toEqual([
      `${file}:6: destination.type must be one of postgres, duckdb, bigquery, snowflake (got "mysql")`,
    ]);
  });

  it('suggests the closest key for a typo, at every level', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
          requests_per_min: 60
        destination:
          type: duckdb
          shema: raw
        stream:
          websites: {}
      `,
      env,
    );
    expect(lines).toEqual([
      `${file}:4: unknown key "requests_per_min" in source, did you mean "requests_per_minute"? (allowed: base_url, allow_insecure_http, api_key, api_key_file, requests_per_minute, timeout_seconds, max_retries, retry_budget_seconds, skip_unchanged, sweep_every, settle_for)`,
      `${file}:7: unknown key "shema" in destination, did you mean "schema"? (allowed: type, path, schema, memory_limit, threads, temp_directory)`,
      `${file}:8: unknown key "stream" at the top level, did you mean "streams"? (allowed: source, sources, destination, streams, schema_evolution, schema_evolution_max_columns, websites, state, openlineage, metrics)`,
    ]);
  });

  it('words ranges, lists, enums, formats, missing keys and wrong shapes', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: ftp://api.example.com
          api_key: \${AIVIS_API_KEY}
          timeout_seconds: "15"
          max_retries: 2.5
        destination:
          type: snowflake
          account: xy12345
          password: \${SF_PASSWORD}
          warehouse: LOAD_WH
          schema: my-schema
        streams:
          analytics: { include: [providers, trends] }
          mentions: { providers: [] }
          citations: all
        websites:
          include: [web_1, 42]
        state: file
      `,
      { ...env, SF_PASSWORD: 'sf-password-1' },
    );
    expect(lines).toEqual([
      `${file}:2: source.base_url must be an http(s) URL such as https://api.example.com (got "ftp://api.example.com")`,
      `${file}:4: source.timeout_seconds must be a number greater than 0 and at most 600 (got "15")`,
      `${file}:5: source.max_retries must be a whole number from 0 to 20 (got 2.5)`,
      `${file}:6: destination.username is required`,
      `${file}:6: destination.database is required`,
      `${file}:11: destination.schema must be letters, digits and underscores, starting with a letter or underscore, or any name in double quotes (case-sensitive) (got "my-schema")`,
      `${file}:13: streams.analytics.include[1] must be one of providers, competitors (got "trends")`,
      `${file}:14: streams.mentions.providers must list at least 1 item (got a list)`,
      `${file}:15: streams.citations must be an empty mapping {} (got "all")`,
      `${file}:17: websites.include[1] must be text (got 42; write it in quotes: "42")`,
      `${file}:18: state must be a mapping with keys from: store, path (got "file")`,
    ]);
  });

  it('suggests the closest allowed value for a typo', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
        destination:
          type: postgress
        streams:
          mentions:
            providers: [chatgpt, google_ai_overviews]
      `,
      env,
    );
    expect(lines).toEqual([
      `${file}:5: destination.type must be one of postgres, duckdb, bigquery, snowflake (got "postgress"; did you mean "postgres"?)`,
      `${file}:8: streams.mentions.providers[1] must be one of chatgpt, gemini, perplexity, google_ai_overview (got "google_ai_overviews"; did you mean "google_ai_overview"?)`,
    ]);
  });

  it('says which of two exclusive keys to give', async () => {
    const { file, lines } = await configErrorLines(yaml`
      source:
        base_url: https://api.example.com
      destination:
        type: bigquery
    `);
    expect(lines).toEqual([
      `${file}:1: source: give exactly one of api_key (as \${VAR}) or api_key_file`,
      `${file}:3: destination.project is required`,
    ]);
  });

  it('refuses a Snowflake flush interval past the 20 minutes the lease timer leaves to the flushes', async () => {
    // The lease lasts 30 minutes and its timer renews it after 20 without a flush, resuming the
    // warehouse on its own: docs/destinations/snowflake.md#cost.
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com
          api_key: \${AIVIS_API_KEY}
        destination:
          type: snowflake
          account: xy12345
          username: AIVIS_LOADER
          password: \${SF_PASSWORD}
          warehouse: LOAD_WH
          database: ANALYTICS
          flush_interval_seconds: 1201
      `,
      { ...env, SF_PASSWORD: 'sf-password-1' },
    );
    expect(lines).toEqual([
      `${file}:11: destination.flush_interval_seconds must be a whole number from 5 to 1200 (got 1201)`,
    ]);
  });

  it('explains an empty file and a file that is not a mapping', async () => {
    const empty = await configErrorLines('# nothing yet\n');
    expect(empty.lines).toEqual([
      `${empty.file}:1: the file is empty: a config needs at least source.base_url and source.api_key`,
    ]);
    const list = await configErrorLines('- source\n');
    expect(list.lines).toEqual([
      `${list.file}:1: the config must be a mapping with keys from: source, sources, destination, streams, schema_evolution, schema_evolution_max_columns, websites, state, openlineage, metrics (got a list)`,
    ]);
  });
});

describe('loadConfig: YAML and file problems', () => {
  it('names file, line and column of a YAML syntax error', async () => {
    const { file, lines } = await configErrorLines(yaml`
      source:
        base_url: https://api.example.com
        api_key: "\${AIVIS_API_KEY}
      destination:
        type: duckdb
    `);
    expect(lines).toEqual([`${file}:6:1: YAML syntax error: Missing closing "quote`]);
  });

  it('refuses a key given twice', async () => {
    const { file, lines } = await configErrorLines(yaml`
      source:
        base_url: https://api.example.com
        base_url: https://api.example.org
    `);
    expect(lines).toEqual([`${file}:3:3: YAML syntax error: Map keys must be unique`]);
  });

  it('explains an unquoted ${VAR} inside a flow mapping', async () => {
    const { file, lines } = await configErrorLines(
      'source: { base_url: https://api.example.com, api_key: ${AIVIS_API_KEY} }\n',
    );
    expect(lines).toEqual([
      `${file}:1:56: YAML syntax error: Unexpected flow-map-start at node end; inside { } or [ ] a \${VAR} value must be quoted: "\${VAR}"`,
    ]);
  });

  it('stops a YAML alias bomb with a config error (exit 2), not a crash', async () => {
    const levels = ['a', 'b', 'c', 'd', 'e', 'f'];
    const bomb = levels.map(
      (name, i) =>
        `${name}: &${name} [${Array(9)
          .fill(i === 0 ? '"lol"' : `*${levels[i - 1]}`)
          .join(', ')}]`,
    );
    const { file, lines } = await configErrorLines(
      [...bomb, 'source:', '  base_url: https://api.example.com', '  api_key: ${AIVIS_API_KEY}', ''].join('\n'),
      env,
    );
    expect(lines).toEqual([
      `${file}: its YAML aliases (*name) expand more than 100 times, the shape of a resource exhaustion ("billion laughs") attack; write the values out instead of nesting aliases`,
    ]);
  });

  it('names a config file that cannot be read, and a missing path', async () => {
    await expect(loadConfig('/nonexistent/aivis/config.yaml', env)).rejects.toThrow(
      new ConfigError(
        'config file /nonexistent/aivis/config.yaml cannot be read (no such file); pass --config FILE or set AIVIS_CONFIG',
      ),
    );
    await expect(loadConfig(undefined, env)).rejects.toThrow(
      new ConfigError('no config file given: pass --config FILE or set AIVIS_CONFIG'),
    );
  });
});

describe('loadConfig: ${VAR} references', () => {
  it('names the missing variable and the line, once per reference', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://\${API_HOST}/\${API_PATH}
          # the key comes from the environment
          api_key: \${AIVIS_API_KEY}
        destination:
          type: postgres
          url: \${DATABASE_URL}
      `,
      { API_HOST: 'api.example.com', DATABASE_URL: '' },
    );
    expect(lines).toEqual([
      `${file}:2: source.base_url refers to \${API_PATH}, which is not set in the environment`,
      `${file}:4: source.api_key refers to \${AIVIS_API_KEY}, which is not set in the environment`,
      `${file}:7: destination.url refers to \${DATABASE_URL}, which is set but empty`,
    ]);
  });

  it('refuses a ${ that starts no reference, and says how to write a literal one', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
        source:
          base_url: https://api.example.com/\${not a name}
          api_key: \${AIVIS_API_KEY}
      `,
      env,
    );
    expect(lines).toEqual([
      `${file}:2: source.base_url has a "\${" that does not start a \${NAME} reference (letters, digits, underscores); write $\${ for a literal "\${"`,
    ]);
  });
});
