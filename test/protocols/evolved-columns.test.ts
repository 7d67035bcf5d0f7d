/**
 * The served contract's evolved columns in the protocol modes (docs/protocols.md#streams):
 * under a contract that declares new fields, `discover`, `--discover`, SCHEMA and every record
 * carry the columns `aivis sync` would add under `schema_evolution: evolve`, typed as its plan
 * types them and valued as its loader writes them; `schema_evolution: freeze` in the JSON
 * config keeps the bundled columns. The real processes against the sandbox over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RunEvolution } from '../../src/evolution/evolve-tables.ts';
import { airbyteCatalog } from '../../src/protocols/airbyte/airbyte-catalog.ts';
import { PROTOCOL_STREAMS } from '../../src/protocols/protocol-streams.ts';
import { singerCatalog } from '../../src/protocols/singer/singer-catalog.ts';
import { type SandboxVariant, type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { citationsTable, mentionsTable } from '../../src/tables/index.ts';
import { type AirbyteMessage, airbyteMessages, singerMessages } from '../support/protocol-messages.ts';
import { expectedCitationKey } from '../e2e/expected-rows.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { airbyte, catalogFile, configFile, tap } from './protocol-world.ts';

type Rec = Record<string, unknown>;

let sandbox: Sandbox | undefined;
const open = async (...variants: SandboxVariant[]) =>
  (sandbox = await startSandbox({ ...SANDBOX, mentionsPerAnalysis: 20, variants }));
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const CITATION_FIELDS = ['url', 'domain', 'title', 'rank'];
const names = (table: { columns: readonly { name: string }[] }) => table.columns.map((c) => c.name);

/** The last record of each id of a stream, by id. */
function latestById(records: readonly { stream: string; data: Rec }[], stream: string): Map<string, Rec> {
  return new Map(records.filter((r) => r.stream === stream).map((r) => [String(r.data.id), r.data]));
}

/** What the sandbox serves of each citation's declared fields, by the row's id. */
function citationTruth(s: Sandbox): Map<string, Rec> {
  const truth = new Map<string, Rec>();
  for (const { id: website } of s.truth.websites())
    for (const c of s.truth.citations(website))
      truth.set(expectedCitationKey(c, website), Object.fromEntries(CITATION_FIELDS.map((f) => [f, c[f] ?? null])));
  return truth;
}

const pick = (rows: Map<string, Rec>, fields: readonly string[]) =>
  new Map([...rows].map(([id, row]) => [id, Object.fromEntries(fields.map((f) => [f, row[f]]))]));

const airbyteRecords = (messages: readonly AirbyteMessage[]) => messages.flatMap((m) => (m.record ? [m.record] : []));
const airbyteStreams = (messages: readonly AirbyteMessage[]) =>
  messages[0]!.catalog!.streams as { name: string; json_schema: { properties: Record<string, Rec> } }[];

describe('evolved columns in aivis airbyte', () => {
  it('discover under the default sandbox lists the bundled columns only, as before', async () => {
    const s = await open('edge_values');
    const result = await airbyte(s, ['discover', '--config', configFile(s)]);
    expect(result.code).toBe(0);
    const messages = airbyteMessages(result.stdout);
    expect(messages[0]!.catalog).toEqual(airbyteCatalog(new RunEvolution()));
    for (const stream of airbyteStreams(messages))
      expect([stream.name, Object.keys(stream.json_schema.properties)]).toEqual([
        stream.name,
        names(PROTOCOL_STREAMS.find((p) => p.name === stream.name)!.table),
      ]);
    // The one request: the served contract.
    expect(s.stats.requests).toBe(1);
  });

  it('discover and read under declared citation fields: typed columns, records equal to the sandbox; freeze keeps the bundled columns', async () => {
    const s = await open('contract_citation_fields');
    const discover = await airbyte(s, ['discover', '--config', configFile(s)]);
    expect(discover.code).toBe(0);
    // Nothing is kept without a destination: no read calls the served document new.
    expect(discover.stderr).not.toContain('has not read before');
    const citations = airbyteStreams(airbyteMessages(discover.stdout)).find((c) => c.name === 'citations')!;
    const properties = citations.json_schema.properties;
    expect(Object.keys(properties)).toEqual([...names(citationsTable), ...CITATION_FIELDS]);
    expect(Object.fromEntries(CITATION_FIELDS.map((f) => [f, properties[f]!.type]))).toEqual({
      url: ['string', 'null'],
      domain: ['string', 'null'],
      title: ['string', 'null'],
      rank: ['integer', 'null'],
    });
    expect(properties.rank!.description).toMatch(/^.*\(Added at run time: `rank` as the served contract declares it/);

    const read = await airbyte(s, ['read', '--config', configFile(s), '--catalog', catalogFile(['citations'])]);
    expect(read.code).toBe(0);
    const rows = latestById(airbyteRecords(airbyteMessages(read.stdout)), 'citations');
    const truth = citationTruth(s);
    expect(rows.size).toBe(truth.size);
    expect(pick(rows, CITATION_FIELDS)).toEqual(truth);
    expect([...rows.values()].every((row) => typeof row.rank === 'number')).toBe(true);
    expect([...rows.values()].some((row) => row.title === null)).toBe(true);

    const frozen = configFile(s, { schema_evolution: 'freeze' });
    const frozenDiscover = airbyteMessages((await airbyte(s, ['discover', '--config', frozen])).stdout);
    expect(
      Object.keys(airbyteStreams(frozenDiscover).find((c) => c.name === 'citations')!.json_schema.properties),
    ).toEqual(names(citationsTable));
    const frozenRead = await airbyte(s, ['read', '--config', frozen, '--catalog', catalogFile(['citations'])]);
    expect(frozenRead.code).toBe(0);
    const frozenRows = latestById(airbyteRecords(airbyteMessages(frozenRead.stdout)), 'citations');
    expect(frozenRows.size).toBe(truth.size);
    for (const row of frozenRows.values()) expect(Object.keys(row)).toEqual(names(citationsTable));
  });

  it('a changed type: the own column keeps what its type holds, the variant column the new values, as a sync writes them; freeze adds no variant', async () => {
    const s = await open('contract_type_change');
    const read = await airbyte(s, ['read', '--config', configFile(s), '--catalog', catalogFile(['mentions'])]);
    expect(read.code).toBe(0);
    const rows = [...latestById(airbyteRecords(airbyteMessages(read.stdout)), 'mentions').values()];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const served = (row._raw as { position_in_response: number | null }).position_in_response;
      expect([row.position_in_response, row.position_in_response__float64]).toEqual([null, served]);
    }
    expect(rows.some((row) => typeof row.position_in_response__float64 === 'number')).toBe(true);

    // Frozen, as a frozen sync: no variant column, and the int64 column still holds only what it can.
    const frozen = configFile(s, { schema_evolution: 'freeze' });
    const frozenRead = await airbyte(s, ['read', '--config', frozen, '--catalog', catalogFile(['mentions'])]);
    expect(frozenRead.code).toBe(0);
    const frozenRows = [...latestById(airbyteRecords(airbyteMessages(frozenRead.stdout)), 'mentions').values()];
    expect(frozenRows).toHaveLength(rows.length);
    for (const row of frozenRows) {
      expect(Object.keys(row)).toEqual(names(mentionsTable));
      expect(row.position_in_response).toBeNull();
    }
  });
});

describe('evolved columns in tap-aivis', () => {
  it('--discover under the default sandbox is the bundled catalog, as before', async () => {
    const s = await open('edge_values');
    const result = await tap(s, ['--config', configFile(s), '--discover']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(singerCatalog(new RunEvolution()));
  });

  it('--discover, SCHEMA and RECORDs carry the declared citation fields and a new mention field', async () => {
    const s = await open('contract_citation_fields', 'contract_new_mention_field');
    const discovered = JSON.parse((await tap(s, ['--config', configFile(s), '--discover'])).stdout) as {
      streams: {
        tap_stream_id: string;
        schema: { properties: Record<string, Rec> };
        metadata: { breadcrumb: string[] }[];
      }[];
    };
    const entry = (name: string) => discovered.streams.find((e) => e.tap_stream_id === name)!;
    expect(Object.keys(entry('citations').schema.properties)).toEqual([...names(citationsTable), ...CITATION_FIELDS]);
    expect(entry('citations').schema.properties.rank!.type).toEqual(['integer', 'null']);
    expect(entry('citations').metadata.map((m) => m.breadcrumb.join('.'))).toContain('properties.rank');
    expect(Object.keys(entry('mentions').schema.properties)).toEqual([...names(mentionsTable), 'response_language']);

    const result = await tap(s, ['--config', configFile(s)]);
    expect(result.code).toBe(0);
    const messages = singerMessages(result.stdout);
    const schema = (name: string) =>
      messages.find((m): m is Extract<typeof m, { type: 'SCHEMA' }> => m.type === 'SCHEMA' && m.stream === name)!;
    expect(Object.keys(schema('citations').schema.properties as Rec)).toEqual([
      ...names(citationsTable),
      ...CITATION_FIELDS,
    ]);
    expect((schema('mentions').schema.properties as Record<string, Rec>).response_language!.type).toEqual([
      'string',
      'null',
    ]);
    const records = messages.flatMap((m) => (m.type === 'RECORD' ? [{ stream: m.stream, data: m.record }] : []));
    const citations = latestById(records, 'citations');
    expect(pick(citations, CITATION_FIELDS)).toEqual(citationTruth(s));
    const mentions = [...latestById(records, 'mentions').values()];
    expect(mentions.length).toBeGreaterThan(0);
    expect(mentions.map((m) => m.response_language)).toEqual(
      mentions.map((m) => (m._raw as Rec).response_language ?? null),
    );
    expect(mentions.some((m) => typeof m.response_language === 'string')).toBe(true);
  });
});
