/**
 * Consumer conformance (docs/protocols.md): the tap's and the source's output held to the rules
 * the Singer targets, Meltano and Airbyte apply to it (`consumer-rules.ts`, each rule citing its
 * source), and the state forms Airbyte platforms hand back. The real processes against the
 * sandbox over loopback; every message is also validated against the official Airbyte protocol
 * and the Singer message shapes (`airbyteMessages`, `singerMessages`).
 */
import { DEFAULT_MAX_EVOLVED_COLUMNS } from '../../schemas/config.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plannedEvolution } from '../../src/evolution/evolve-tables.ts';
import { PROTOCOL_STREAMS, protocolStream, recordSchema } from '../../src/protocols/protocol-streams.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { mentionsTable } from '../../src/tables/index.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { type AirbyteMessage, airbyteMessages, singerMessages } from '../support/protocol-messages.ts';
import {
  additionalPropertiesTrue,
  documented,
  everyPropertyTyped,
  formFields,
  jsonColumnsTyped,
  keysInSchema,
  noEmptyObjects,
  secretsMarked,
} from './consumer-rules.ts';
import { airbyte, catalogFile, configFile, jsonFile, tap } from './protocol-world.ts';

type Schema = Record<string, unknown>;
const ROOT = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  homepage?: string;
  files: string[];
};

/** A stream's JSON columns and the JSON types each holds. */
const jsonColumnsOf = (name: string) =>
  new Map(
    protocolStream(name)!
      .table.columns.filter((c) => c.type === 'json')
      .map((c) => [c.name, c.jsonTypes ?? []] as const),
  );

/** Every rule a stream's record schema answers to, as one list of problems naming the stream. */
function schemaProblems(name: string, schema: Schema, keys: readonly string[]): string[] {
  return [
    ...everyPropertyTyped(schema),
    ...jsonColumnsTyped(schema, jsonColumnsOf(name)),
    ...keysInSchema(schema, keys),
    ...additionalPropertiesTrue(schema),
  ].map((problem) => `${name}: ${problem}`);
}

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox(SANDBOX);
});
afterEach(async () => {
  await sandbox.close();
});

describe('the Airbyte SPEC, as the setup form and the acceptance tests read it', () => {
  it('additionalProperties true where set, no empty object, a title and description on every field, the key a secret, documentationUrl the published docs', async () => {
    const result = await airbyte(sandbox, ['spec']);
    expect(result.code).toBe(0);
    const spec = airbyteMessages(result.stdout)[0]!.spec as {
      connectionSpecification: Schema;
      documentationUrl?: string;
    };
    const form = spec.connectionSpecification;
    expect([
      ...additionalPropertiesTrue(form),
      ...noEmptyObjects(form),
      ...formFields(form),
      ...secretsMarked(form, ['api_key']),
      ...documented(spec),
    ]).toEqual([]);
    expect(form.additionalProperties).toBe(true);
    expect(spec.documentationUrl).toBe(`https://unpkg.com/aivis@${pkg.version}/docs/protocols.md`);
    // The page it points at is published with the package.
    expect(pkg.files).toContain('docs/');
    expect(pkg.homepage).toBe('https://www.npmjs.com/package/aivis');
  });
});

describe('discovered schemas, as Singer targets and Airbyte destinations type them', () => {
  it('aivis airbyte discover: every property typed, JSON columns object or array with null, keys present and never null', async () => {
    const result = await airbyte(sandbox, ['discover', '--config', configFile(sandbox)]);
    const streams = airbyteMessages(result.stdout)[0]!.catalog!.streams as {
      name: string;
      json_schema: Schema;
      source_defined_primary_key: string[][];
    }[];
    expect(streams.map((s) => s.name)).toEqual(PROTOCOL_STREAMS.map((s) => s.name));
    expect(streams.flatMap((s) => schemaProblems(s.name, s.json_schema, s.source_defined_primary_key.flat()))).toEqual(
      [],
    );
    const mentions = streams.find((s) => s.name === 'mentions')!.json_schema.properties as Record<string, Schema>;
    expect([mentions._raw!.type, mentions.mention_spans!.type]).toEqual([
      ['object', 'null'],
      ['array', 'null'],
    ]);
  });

  it('tap-aivis --discover and the SCHEMA messages of a sync answer the same rules', async () => {
    const config = configFile(sandbox);
    const discovered = await tap(sandbox, ['--config', config, '--discover']);
    const catalog = JSON.parse(discovered.stdout) as {
      streams: {
        stream: string;
        schema: Schema;
        key_properties: string[];
        metadata: { breadcrumb: string[]; metadata: { 'valid-replication-keys'?: string[] } }[];
      }[];
    };
    expect(catalog.streams.flatMap((s) => schemaProblems(s.stream, s.schema, s.key_properties))).toEqual([]);
    // A replication key a target or Meltano's state handling reads is a property too (none: the bookmark is the API's frontier).
    const replicationKeys = catalog.streams.flatMap((s) =>
      (s.metadata.find((m) => m.breadcrumb.length === 0)!.metadata['valid-replication-keys'] ?? []).map(
        (k) => [s, k] as const,
      ),
    );
    expect(replicationKeys.filter(([s, k]) => !(k in (s.schema.properties as object)))).toEqual([]);
    const sync = await tap(sandbox, ['--config', config]);
    expect(sync.code).toBe(0);
    const schemas = singerMessages(sync.stdout).flatMap((m) => (m.type === 'SCHEMA' ? [m] : []));
    expect(schemas.map((m) => m.stream)).toEqual(PROTOCOL_STREAMS.map((s) => s.name));
    expect(schemas.flatMap((m) => schemaProblems(m.stream, m.schema, m.key_properties))).toEqual([]);
  });

  it('an evolved column is typed as declared: a union as that union with null, an object or array as such, an untyped one as any JSON value', () => {
    const declared = new Map<string, Schema>([
      ['answer_meta', { type: 'object' }],
      ['tags', { type: 'array', items: { type: 'string' } }],
      ['score_or_label', { type: ['string', 'integer'] }],
      ['either', { anyOf: [{ type: 'object' }, { type: 'array' }, { type: 'null' }] }],
      ['anything', {}],
      // The stream's own int64 column declared as a union: a variant column of that union.
      ['position_in_response', { type: ['integer', 'string'] }],
    ]);
    const evolution = plannedEvolution(
      [mentionsTable],
      'evolve',
      (stream, within) =>
        stream === 'mentions' && within.length === 0
          ? [...declared].map(([name, schema]) => ({ name, schema, required: false, nullable: true }))
          : [],
      DEFAULT_MAX_EVOLVED_COLUMNS,
    );
    const mentions = protocolStream('mentions')!;
    const schema = recordSchema(mentions, evolution);
    const typeOf = (name: string) => (schema.properties as Record<string, Schema>)[name]!.type;
    expect({
      answer_meta: typeOf('answer_meta'),
      tags: typeOf('tags'),
      score_or_label: typeOf('score_or_label'),
      either: typeOf('either'),
      anything: typeOf('anything'),
      position_in_response__json: typeOf('position_in_response__json'),
    }).toEqual({
      answer_meta: ['object', 'null'],
      tags: ['array', 'null'],
      score_or_label: ['string', 'integer', 'null'],
      either: ['object', 'array', 'null'],
      anything: ['object', 'array', 'string', 'number', 'boolean', 'null'],
      position_in_response__json: ['integer', 'string', 'null'],
    });
    expect(everyPropertyTyped(schema)).toEqual([]);
  });
});

describe('the state forms Airbyte platforms hand back to aivis airbyte read --state', () => {
  const mentionsRecords = (messages: readonly AirbyteMessage[]) =>
    messages.filter((m) => m.record?.stream === 'mentions').length;

  /** A read of mentions (incremental) with `state` as the --state file's JSON (none: no --state). */
  const read = async (config: string, state?: unknown) => {
    const args = ['read', '--config', config, '--catalog', catalogFile(['mentions'])];
    const result = await airbyte(
      sandbox,
      state === undefined ? args : [...args, '--state', jsonFile('state.json', JSON.stringify(state))],
    );
    expect([result.code, result.stderr]).toEqual([0, expect.not.stringMatching(/"level":"error"/)]);
    return airbyteMessages(result.stdout);
  };

  /** A first read: how many mentions records a read from the beginning has, and the last STATE it printed. */
  const firstRead = async (config: string) => {
    const first = await read(config);
    const saved = first.filter((m) => m.state).at(-1)!.state as { stream: { stream_state: unknown } };
    return { whole: mentionsRecords(first), saved };
  };

  it('a reset stream (stream_state null or missing), {}, [] and null: read from the beginning', async () => {
    const config = configFile(sandbox);
    const { whole } = await firstRead(config);
    expect(whole).toBeGreaterThan(0);
    const descriptor = { name: 'mentions' };
    for (const reset of [
      [{ type: 'STREAM', stream: { stream_descriptor: descriptor, stream_state: null } }],
      [{ type: 'STREAM', stream: { stream_descriptor: descriptor } }],
      {},
      [],
      null,
    ])
      expect([reset, mentionsRecords(await read(config, reset))]).toEqual([reset, whole]);
  });

  it('legacy state (type LEGACY, data alone, the data object) and a STATE with platform fields: resumed', async () => {
    const config = configFile(sandbox);
    const { whole, saved } = await firstRead(config);
    const streamState = saved.stream.stream_state;
    for (const resumed of [
      [{ type: 'LEGACY', data: { mentions: streamState } }],
      [{ data: { mentions: streamState } }],
      { mentions: streamState },
      [{ ...saved, id: 7, sourceStats: { recordCount: whole }, destinationStats: { recordCount: whole } }],
    ]) {
      const count = mentionsRecords(await read(config, resumed));
      // From the saved frontier: only the boundary records again (updated_since is inclusive).
      expect([resumed, count < whole]).toEqual([resumed, true]);
    }
  });
});

describe('tap-aivis catalog selection, as the Meltano Singer SDK resolves it', () => {
  type Catalog = { streams: { tap_stream_id: string; metadata: { breadcrumb: string[]; metadata: Schema }[] }[] };
  const discover = async (config: string) =>
    JSON.parse((await tap(sandbox, ['--config', config, '--discover'])).stdout) as Catalog;
  const streamsRead = (stdout: string) =>
    singerMessages(stdout).flatMap((m) => (m.type === 'SCHEMA' ? [m.stream] : []));
  const withMetadata = (catalog: Catalog, change: (stream: string, breadcrumb: string[], metadata: Schema) => Schema) =>
    jsonFile('catalog.json', {
      streams: catalog.streams.map((s) => ({
        ...s,
        metadata: s.metadata.map((m) => ({ ...m, metadata: change(s.tap_stream_id, m.breadcrumb, m.metadata) })),
      })),
    });

  it('the catalog --discover printed, handed back as it is, reads every stream (selected-by-default)', async () => {
    const config = configFile(sandbox);
    const catalog = jsonFile('catalog.json', await discover(config));
    const result = await tap(sandbox, ['--config', config, '--catalog', catalog]);
    expect(result.code).toBe(0);
    expect(streamsRead(result.stdout)).toEqual(PROTOCOL_STREAMS.map((s) => s.name));
  });

  it('selected wins over selected-by-default; an automatic property is kept even deselected', async () => {
    const config = configFile(sandbox);
    const catalog = withMetadata(await discover(config), (stream, breadcrumb, metadata) =>
      breadcrumb.length === 0 ? { ...metadata, selected: stream === 'mentions' } : { ...metadata, selected: false },
    );
    const result = await tap(sandbox, ['--config', config, '--catalog', catalog]);
    expect(result.code).toBe(0);
    const messages = singerMessages(result.stdout);
    expect(streamsRead(result.stdout)).toEqual(['mentions']);
    const record = messages.find((m) => m.type === 'RECORD')!;
    expect(record.type === 'RECORD' && Object.keys(record.record)).toEqual(['id']);
  });

  it('a catalog that selects nothing reads nothing and says so on stderr, with the fix', async () => {
    const config = configFile(sandbox);
    const catalog = withMetadata(await discover(config), (_stream, breadcrumb, metadata) =>
      breadcrumb.length === 0 ? { ...metadata, selected: false } : metadata,
    );
    const requests = sandbox.stats.requests;
    const result = await tap(sandbox, ['--config', config, '--catalog', catalog]);
    expect([result.code, result.stdout]).toEqual([0, '']);
    const said = result.stderr.split('\n').filter((line) => line.includes('selects no stream'));
    expect(said.map((line) => (JSON.parse(line) as { level: string; msg: string }).level)).toEqual(['warn']);
    const { msg } = JSON.parse(said[0]!) as { msg: string };
    expect(msg).toContain(`the --catalog file ${catalog} selects no stream, so nothing is read`);
    expect(msg).toContain(`"selected": true in its metadata with breadcrumb []`);
    expect(sandbox.stats.requests).toBe(requests);
  });

  it('tap-aivis --help prints its usage and exits 0', async () => {
    const result = await tap(sandbox, ['--help']);
    expect([result.code, result.stdout.split('\n')[0]]).toEqual([
      0,
      'usage: tap-aivis --config FILE [--state FILE] [--catalog FILE | --properties FILE] [--discover]',
    ]);
  });
});

describe('the JSON config a platform writes', () => {
  it('a key aivis does not know is one warning naming it and is otherwise ignored', async () => {
    const config = configFile(sandbox, { platform_id: 'abc', streams: { mentions: { page_size: 5 } } });
    const result = await airbyte(sandbox, ['discover', '--config', config]);
    expect(result.code).toBe(0);
    expect(airbyteMessages(result.stdout).map((m) => m.type)).toEqual(['CATALOG']);
    const warnings = result.stderr
      .split('\n')
      .filter((line) => line.includes('config key ignored'))
      .map((line) => (JSON.parse(line) as { key: string }).key);
    expect(warnings).toEqual(['streams.mentions.page_size', 'platform_id']);
  });

  it('errors name the JSON config key api_key, not the YAML config source.api_key', async () => {
    const config = configFile(sandbox, { api_key: 'not-the-key' });
    const check = airbyteMessages((await airbyte(sandbox, ['check', '--config', config])).stdout);
    const said = check[0]!.connectionStatus!.message!;
    expect(said).toContain('check api_key');
    expect(said).not.toContain('source.');
    const read = airbyteMessages(
      (await airbyte(sandbox, ['read', '--config', config, '--catalog', catalogFile(['websites'])])).stdout,
    );
    const error = read.find((m) => m.trace?.error)!.trace!.error!.message;
    expect(error).toContain('check api_key');
    expect(error).not.toContain('source.');
  });
});
