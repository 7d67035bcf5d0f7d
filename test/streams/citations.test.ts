/**
 * Citation rows (spec 2.6 shows no fields): typed columns only where a field is present and
 * well-formed, and a key that needs no `id`, by README's rule: `sha256:` + SHA-256 of the
 * canonical JSON of the identifying fields, else of the whole record.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { citationsStream } from '../../src/streams/citations.ts';

const context = { websiteId: 'web_1', runId: 'run_1', syncedAt: '2026-01-02T00:00:00.000Z', workspace: 'default' };
const rowOf = (record: Record<string, unknown>) => citationsStream.toRow(record, record, context);
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

const cited = {
  analysis_id: 'ana_1',
  provider: 'chatgpt',
  observed_at: '2026-01-01T10:00:00Z',
  url: 'https://a.example/x',
  title: 'A',
  available_at: '2026-01-01T11:00Z',
};

describe('citation key', () => {
  it('is the record id when it has one', () => {
    expect(rowOf({ ...cited, id: 'cit_9' }).id).toBe('cit_9');
  });

  it('without an id, hashes [website, analysis_id, provider, observed_at, url] as canonical JSON', () => {
    expect(rowOf(cited).id).toBe(sha256('["web_1","ana_1","chatgpt","2026-01-01T10:00:00Z","https://a.example/x"]'));
  });

  it('keeps its key when the server sends the citation again with another title or available_at', () => {
    expect(rowOf({ ...cited, title: 'B', available_at: '2026-01-03T00:00Z' }).id).toBe(rowOf(cited).id);
  });

  it('differs per website for the same record', () => {
    expect(citationsStream.toRow(cited, cited, { ...context, websiteId: 'web_2' }).id).not.toBe(rowOf(cited).id);
  });

  it('without the identifying fields, hashes the whole record with its keys sorted', () => {
    const record = {
      source: 'https://b.example',
      provider: 'gemini',
      analysis_id: 'ana_2',
      n: 12345678901234567890n,
      nested: { z: 1, a: [true, null] },
    };
    const raw = JSON.parse(
      '{"source":"https://b.example","provider":"gemini","analysis_id":"ana_2","n":1,"nested":{"z":1,"a":[true,null]}}',
    );
    raw.n = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON('12345678901234567890');
    expect(citationsStream.toRow(record, raw, context).id).toBe(
      sha256(
        '["web_1",{"analysis_id":"ana_2","n":12345678901234567890,"nested":{"a":[true,null],"z":1},"provider":"gemini","source":"https://b.example"}]',
      ),
    );
  });
});

describe('citation columns', () => {
  it('holds each field that is present and well-formed, as sent', () => {
    expect(rowOf({ ...cited, provider: 'ChatGPT', analysis_id: 'analysis-9' })).toMatchObject({
      website_id: 'web_1',
      analysis_id: 'analysis-9',
      provider: 'ChatGPT',
      observed_at: '2026-01-01T10:00:00Z',
      available_at: '2026-01-01T11:00Z',
    });
  });

  it('is NULL where a field is absent or malformed, and the record keeps it in _raw', () => {
    const record = { id: 'cit_1', observed_at: 'yesterday', available_at: 1767225600, provider: ['chatgpt'] };
    const row = rowOf(record);
    expect(row).toMatchObject({
      id: 'cit_1',
      website_id: 'web_1',
      analysis_id: null,
      provider: null,
      observed_at: null,
      available_at: null,
    });
    expect(JSON.parse(row._raw as string)).toEqual(record);
  });
});
