/**
 * The Airbyte and Meltano deploy samples: the Dockerfile's `airbyte` target (no container
 * engine runs here: its text, and its entrypoint's command line run as the image would), the
 * configured catalog as `read` takes it, and meltano.yml's extractor.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfiguredCatalog } from '../../src/protocols/airbyte/airbyte-catalog.ts';
import { configJsonSchema } from '../../src/protocols/protocol-config.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { type AirbyteMessage, airbyteMessages, singerMessages } from '../support/protocol-messages.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { meltanoSelect, type SingerCatalog } from '../protocols/meltano-select.ts';
import { airbyte, configFile, jsonFile, tap } from '../protocols/protocol-world.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

/** Each stage's instructions (continuation lines joined), by its name; the last stage under `''` too. */
function stages(text: string): Map<string, string[]> {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const out = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of lines) {
    const from = /^FROM (\S+)(?: AS (\S+))?/.exec(line);
    if (from) out.set(from[2] ?? '', (current = [line]));
    else current.push(line);
  }
  return out;
}

describe('Dockerfile', () => {
  const byName = stages(dockerfile);
  const airbyte = byName.get('airbyte')!;
  const last = [...byName.values()].at(-1)!;

  it('has an airbyte target on the runtime whose entrypoint is aivis airbyte, with AIRBYTE_ENTRYPOINT and the io.airbyte labels', () => {
    expect(airbyte[0]).toBe('FROM runtime AS airbyte');
    expect(airbyte).toContain('ENTRYPOINT ["aivis", "airbyte"]');
    expect(airbyte.find((l) => l.startsWith('ENV '))).toMatch(/AIRBYTE_ENTRYPOINT="aivis airbyte"/);
    const labels = airbyte.find((l) => l.startsWith('LABEL '))!;
    expect(labels).toMatch(/io\.airbyte\.name="aivis\/source-aivis"/);
    expect(labels).toContain(`io.airbyte.version="${pkg.version}"`);
  });

  it('keeps aivis the default image: the last stage is the runtime, ENTRYPOINT aivis', () => {
    expect(last).toEqual(['FROM runtime']);
    expect(byName.get('runtime')).toContain('ENTRYPOINT ["aivis"]');
  });

  it('its entrypoint answers IMAGE spec and IMAGE check --config x.json as the Airbyte protocol says', async () => {
    const entrypoint = JSON.parse(
      airbyte.find((l) => l.startsWith('ENTRYPOINT '))!.slice('ENTRYPOINT '.length),
    ) as string[];
    expect(entrypoint[0]).toBe('aivis');
    // The image clears AIVIS_CONFIG; the arguments after the image name follow the entrypoint.
    const run = (...args: string[]) => runCli([...entrypoint.slice(1), ...args], { AIVIS_CONFIG: '' }).done;
    const spec = await run('spec');
    expect(spec.code).toBe(0);
    expect(airbyteMessages(spec.stdout).map((m) => m.type)).toEqual(['SPEC']);
    const sandbox = await startSandbox({ websites: 2, requestsPerMinute: 0 });
    try {
      const check = await run('check', '--config', configFile(sandbox));
      expect(airbyteMessages(check.stdout).map((m) => m.connectionStatus?.status)).toEqual(['SUCCEEDED']);
      const noConfig = await run('discover');
      expect(airbyteMessages(noConfig.stdout)[0]!.trace!.error).toEqual({
        message: 'no config file given: pass --config FILE',
        failure_type: 'config_error',
      });
    } finally {
      await sandbox.close();
    }
  });
});

describe('examples/airbyte', () => {
  it('its configured catalog is one read takes: the feeds incremental, the rest full refresh', async () => {
    const selected = await readConfiguredCatalog(path.join(ROOT, 'examples/airbyte/configured_catalog.json'));
    expect(selected.map((s) => [s.stream.name, s.incremental])).toEqual([
      ['websites', false],
      ['analytics_latest', false],
      ['analytics_history', true],
      ['mentions', true],
      ['citations', true],
    ]);
  });

  it('its example config holds the keys of the SPEC', () => {
    const example = JSON.parse(readFileSync(path.join(ROOT, 'examples/airbyte/config.example.json'), 'utf8')) as object;
    const properties = Object.keys((configJsonSchema() as { properties: object }).properties);
    for (const key of Object.keys(example)) expect(properties).toContain(key);
  });
});

const FEEDS = ['analytics_history', 'mentions', 'citations'];
const count = (streams: readonly string[], stream: string) => streams.filter((s) => s === stream).length;

describe('examples/airbyte, run as Airbyte runs it against the sandbox', () => {
  it('the example config and configured catalog read the five streams; the last states, handed back, resume the feeds', async () => {
    const sandbox = await startSandbox(SANDBOX);
    try {
      const example = JSON.parse(
        readFileSync(path.join(ROOT, 'examples/airbyte/config.example.json'), 'utf8'),
      ) as object;
      // The form's values: the example's, with this API and its key.
      const config = jsonFile('config.json', { ...example, base_url: sandbox.baseUrl, api_key: sandbox.apiKey });
      const catalog = path.join(ROOT, 'examples/airbyte/configured_catalog.json');
      const read = async (extra: string[] = []) => {
        const result = await airbyte(sandbox, ['read', '--config', config, '--catalog', catalog, ...extra]);
        expect(result.code).toBe(0);
        return airbyteMessages(result.stdout);
      };
      const recordStreams = (messages: readonly AirbyteMessage[]) =>
        messages.flatMap((m) => (m.record ? [m.record.stream] : []));
      const first = await read();
      const picked = ['websites', 'analytics_latest', 'analytics_history', 'mentions', 'citations'];
      expect([...new Set(recordStreams(first))]).toEqual(picked);
      const lastStates = [
        ...new Map(
          first.flatMap((m) => (m.state ? [[m.state.stream.stream_descriptor.name, m.state] as const] : [])),
        ).values(),
      ];
      expect(lastStates.map((s) => s.stream.stream_descriptor.name).sort()).toEqual([...FEEDS, 'websites'].sort());
      const second = recordStreams(await read(['--state', jsonFile('state.json', lastStates)]));
      for (const feed of FEEDS)
        expect([feed, count(second, feed) < count(recordStreams(first), feed)]).toEqual([feed, true]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('examples/meltano/meltano.yml', () => {
  const meltano = parse(readFileSync(path.join(ROOT, 'examples/meltano/meltano.yml'), 'utf8')) as {
    plugins: {
      extractors: {
        name: string;
        executable: string;
        capabilities: string[];
        settings: { name: string; sensitive?: boolean }[];
        config: Record<string, unknown>;
        select: string[];
      }[];
    };
  };
  const [extractor] = meltano.plugins.extractors;

  it('is a custom extractor running the package bin tap-aivis with catalog, discover and state', () => {
    expect(extractor!.executable).toBe('tap-aivis');
    expect(pkg.bin['tap-aivis']).toBe('bin/tap-aivis.cjs');
    expect(extractor!.capabilities).toEqual(['catalog', 'discover', 'state']);
  });

  it('declares exactly the JSON config keys, the API key as sensitive', () => {
    const properties = Object.keys((configJsonSchema() as { properties: object }).properties);
    expect(extractor!.settings.map((s) => s.name)).toEqual(properties);
    expect(extractor!.settings.find((s) => s.name === 'api_key')!.sensitive).toBe(true);
  });
});

describe('examples/meltano, run as Meltano runs tap-aivis against the sandbox', () => {
  const meltano = parse(readFileSync(path.join(ROOT, 'examples/meltano/meltano.yml'), 'utf8')) as {
    plugins: { extractors: { config: Record<string, unknown>; select: string[] }[] };
  };
  const [extractor] = meltano.plugins.extractors;

  it('--discover, the catalog under its select rules, a sync of the streams they pick, then one from the state it printed', async () => {
    const sandbox = await startSandbox(SANDBOX);
    try {
      // Meltano writes the extractor's config, the key set with `meltano config ... set api_key` included.
      const config = jsonFile('config.json', {
        ...extractor!.config,
        base_url: sandbox.baseUrl,
        api_key: sandbox.apiKey,
      });
      const discovered = await tap(sandbox, ['--config', config, '--discover']);
      expect(discovered.code).toBe(0);
      const catalog = jsonFile(
        'catalog.json',
        meltanoSelect(JSON.parse(discovered.stdout) as SingerCatalog, extractor!.select),
      );
      const sync = async (extra: string[] = []) => {
        const result = await tap(sandbox, ['--config', config, '--catalog', catalog, ...extra]);
        expect(result.code).toBe(0);
        return singerMessages(result.stdout);
      };
      const first = await sync();
      const picked = ['websites', 'analytics_latest', 'analytics_history', 'mentions', 'citations'];
      expect(first.flatMap((m) => (m.type === 'SCHEMA' ? [m.stream] : []))).toEqual(picked);
      const recordStreams = (messages: typeof first) =>
        messages.flatMap((m) => (m.type === 'RECORD' ? [m.stream] : []));
      expect([...new Set(recordStreams(first))]).toEqual(picked);
      // Meltano keeps the last STATE's value and hands it back as --state.
      const state = first.flatMap((m) => (m.type === 'STATE' ? [m.value] : [])).at(-1)!;
      const second = recordStreams(await sync(['--state', jsonFile('state.json', state)]));
      for (const feed of FEEDS)
        expect([feed, count(second, feed) < count(recordStreams(first), feed)]).toEqual([feed, true]);
    } finally {
      await sandbox.close();
    }
  });
});
