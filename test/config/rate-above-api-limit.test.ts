/** A requests_per_minute above the API's limit of 100 per workspace is accepted and said, with file and line. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/log/logger.ts';
import { writeConfig, yaml } from './config-files.ts';

const env = { AIVIS_API_KEY: 'sk_test_rate_key' };

async function warnings(text: string, apiKeys: 'all' | 'none' = 'all'): Promise<string[]> {
  const file = await writeConfig(text);
  const lines: string[] = [];
  await loadConfig(file, env, createLogger({ json: true, write: (line) => lines.push(line) }), apiKeys);
  return lines.map((line) => (JSON.parse(line) as { msg: string }).msg.replace(file, 'config.yaml'));
}

describe('requests_per_minute above the API limit', () => {
  it('warns for each workspace above 100 with its line, a server on this machine included, and not at 100', async () => {
    expect(
      await warnings(yaml`
        sources:
          shop:
            base_url: https://api.example.com
            api_key: \${AIVIS_API_KEY}
            requests_per_minute: 200
          blog:
            base_url: https://api.example.com
            api_key: \${AIVIS_API_KEY}
            requests_per_minute: 100
          local:
            base_url: http://127.0.0.1:8080
            api_key: \${AIVIS_API_KEY}
            requests_per_minute: 6000
        destination:
          type: duckdb
      `),
    ).toEqual([
      "config.yaml:13: sources.local.requests_per_minute 6000 is above the API's limit of 100 requests per minute per workspace: the API refuses the excess (429) and aivis waits, so syncs get no faster; set 100 or less",
      "config.yaml:5: sources.shop.requests_per_minute 200 is above the API's limit of 100 requests per minute per workspace: the API refuses the excess (429) and aivis waits, so syncs get no faster; set 100 or less",
    ]);
  });

  it('says nothing to a command that calls no API (query, status, streams)', async () => {
    const config = yaml`
      source:
        base_url: http://127.0.0.1:8080
        api_key: \${AIVIS_API_KEY}
        requests_per_minute: 6000
      destination:
        type: duckdb
    `;
    expect(await warnings(config, 'none')).toEqual([]);
    expect(await warnings(config)).toHaveLength(1);
  });
});
