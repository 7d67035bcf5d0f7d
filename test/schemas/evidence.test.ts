import { describe, expect, it } from 'vitest';
import { citationSchema, mentionSchema } from '../../schemas/index.ts';
import { mention, withField } from './fixtures.ts';
import { outcome } from './parse-result.ts';

describe('mentionSchema', () => {
  it('accepts a mention and preserves unknown fields', () => {
    const record = {
      ...mention(),
      website_id: 'web_1',
      mention_spans: [{ start: 0, end: 4, kind: 'brand' }],
      url: 'https://x',
    };
    expect(mentionSchema.parse(record)).toEqual(record);
  });

  it('accepts nulls where the spec allows them and an empty span list', () => {
    const record = { ...mention(), position_in_response: null, sentiment: null, mention_spans: [] };
    expect(mentionSchema.parse(record)).toEqual(record);
  });

  it.each(Object.keys(mention()))('%s is required', (field) => {
    expect(outcome(mentionSchema, withField(mention(), field, undefined))).toMatch(new RegExp(`^${field}: is missing`));
  });

  it.each([
    [
      'id',
      'web_1',
      'id: must be a mention id: men_ then letters, digits, _ or -, at most 128 characters (got "web_1")',
    ],
    [
      'analysis_id',
      null,
      'analysis_id: must be an analysis id: ana_ then letters, digits, _ or -, at most 128 characters (got null)',
    ],
    [
      'observed_at',
      '2026-02-29T00:00:00Z',
      'observed_at: must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date (got "2026-02-29T00:00:00Z")',
    ],
    [
      'provider',
      'ChatGPT',
      'provider: must be a provider name of 1 to 128 lowercase letters and digits, words joined by - or _ (got "ChatGPT")',
    ],
    ['sentence_text', null, 'sentence_text: must be a string (got null)'],
    ['sentence_text_truncated', 0, 'sentence_text_truncated: must be true or false (got 0)'],
    ['position_in_response', 0, 'position_in_response: must be an integer from 1 to 9007199254740991 or null (got 0)'],
    [
      'position_in_response',
      2.5,
      'position_in_response: must be an integer from 1 to 9007199254740991 or null (got 2.5)',
    ],
    ['sentiment', 101, 'sentiment: must be a number from 0 to 100 or null (got 101)'],
    ['mention_spans', null, 'mention_spans: must be an array (got null)'],
    [
      'mention_spans',
      [{ start: -1, end: 0 }],
      'mention_spans[0].start: must be an integer of at least 0 (got -1); mention_spans[0].end: must be an integer of at least 1 (got 0)',
    ],
    ['mention_spans', [{ start: 0 }], 'mention_spans[0].end: is missing'],
  ])('%s = %j is rejected', (field, value, message) => {
    expect(outcome(mentionSchema, withField(mention(), field, value))).toBe(message);
  });
});

describe('citationSchema (fields not shown by the spec: any JSON object)', () => {
  it.each([
    [{}],
    [{ id: 'cit_1' }],
    [{ id: 7, provider: 'ChatGPT', observed_at: 'yesterday', analysis_id: 'analysis-9' }],
    [
      {
        website_id: 'web_1',
        analysis_id: 'ana_1',
        provider: 'perplexity',
        observed_at: '2026-01-30T00:00Z',
        url: 'https://a.b',
        rank: 3,
      },
    ],
  ])('accepts %j and preserves every field', (record) => {
    expect(citationSchema.parse(record)).toEqual(record);
  });

  it.each([
    ['cit_1', 'must be an object (got "cit_1")'],
    [null, 'must be an object (got null)'],
    [[{ id: 'cit_1' }], 'must be an object (got an array of 1 item)'],
  ])('rejects %j: a citation is a JSON object', (record, message) => {
    expect(outcome(citationSchema, record)).toBe(message);
  });
});
