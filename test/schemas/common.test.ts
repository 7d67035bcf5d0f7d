import { describe, expect, it } from 'vitest';
import {
  analysisIdSchema,
  listEnvelopeSchema,
  listMetaSchema,
  mentionIdSchema,
  promptImportIdSchema,
  requestIdSchema,
  timestampSchema,
  updatedSinceSchema,
  websiteIdSchema,
} from '../../schemas/index.ts';
import { outcome } from './parse-result.ts';

const TS = 'must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date';
const SINCE = 'must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date';

describe('timestampSchema', () => {
  it.each([
    '2026-01-31T12:00:00Z',
    '2024-02-29T23:59:59Z',
    '2000-02-29T00:00:00Z',
    '2026-01-30T06:00:00.123456789Z',
    '2026-01-30T06:00:00.1234567891234Z',
    '2026-01-01T12:00Z',
    '2026-01-01T12:00:07.5Z',
  ])(
    'accepts %s (every form of the spec, with or without seconds, any fraction) and keeps the exact string',
    (value) => {
      expect(timestampSchema.parse(value)).toBe(value);
    },
  );

  it.each([
    ['2026-02-30T00:00:00Z', 'February 30'],
    ['2025-02-29T00:00:00Z', 'February 29 of a common year'],
    ['1900-02-29T00:00:00Z', 'February 29 of a century non-leap year'],
    ['2026-04-31T00:00:00Z', 'April 31'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-00-10T00:00:00Z', 'month 0'],
    ['2026-01-01T24:00:00Z', 'hour 24'],
    ['2026-01-01T23:60:00Z', 'minute 60'],
    ['2026-01-01T23:59:60Z', 'leap second'],
    ['2026-01-01T12:00:00+00:00', 'an offset instead of Z'],
    ['2026-01-01T12:00:00', 'no zone'],
    ['2026-01-01T12Z', 'no minutes'],
    ['2026-01-01T12:00:00.Z', 'a dot without fraction digits'],
    ['2026-01-01 12:00:00Z', 'a space for T'],
  ])('rejects %s (%s)', (value) => {
    expect(outcome(timestampSchema, value)).toBe(`${TS} (got "${value}")`);
  });

  it('rejects a number with its value', () => {
    expect(outcome(timestampSchema, 1767225600)).toBe(`${TS} (got 1767225600)`);
  });
});

describe('updatedSinceSchema', () => {
  it.each(['2026-01-31T12:00Z', '2026-01-31T12:00:59Z', '2026-01-31T12:00:59.5Z'])('accepts %s', (value) => {
    expect(updatedSinceSchema.parse(value)).toBe(value);
  });

  it.each(['2026-02-30T12:00Z', '2026-01-31T24:00Z', '2026-01-31T12Z', '2026-01-31T12:00:00.Z', '2026-01-31'])(
    'rejects %s',
    (value) => {
      expect(outcome(updatedSinceSchema, value)).toBe(`${SINCE} (got "${value}")`);
    },
  );
});

describe('typed identifiers', () => {
  const cases = [
    [websiteIdSchema, 'web_', 'a website id'],
    [analysisIdSchema, 'ana_', 'an analysis id'],
    [mentionIdSchema, 'men_', 'a mention id'],
    [promptImportIdSchema, 'pim_', 'a prompt import id'],
  ] as const;

  it.each(cases)('%#: accepts letters, digits, _ and - up to 128 characters', (schema, prefix) => {
    const longest = prefix + 'a-_Z9'.repeat(30).slice(0, 128 - prefix.length);
    expect(longest).toHaveLength(128);
    expect(schema.parse(longest)).toBe(longest);
    expect(schema.parse(`${prefix}x`)).toBe(`${prefix}x`);
  });

  it.each(cases)(
    '%#: rejects a bad prefix, an empty tail, other characters and 129 characters',
    (schema, prefix, what) => {
      const rule = `must be ${what}: ${prefix} then letters, digits, _ or -, at most 128 characters`;
      expect(outcome(schema, 'xyz_1')).toBe(`${rule} (got "xyz_1")`);
      expect(outcome(schema, prefix)).toBe(`${rule} (got "${prefix}")`);
      expect(outcome(schema, `${prefix}a.b`)).toBe(`${rule} (got "${prefix}a.b")`);
      expect(outcome(schema, prefix + 'a'.repeat(125))).toBe(
        `${rule} (got "${prefix}${'a'.repeat(36)}"... (129 characters))`,
      );
      expect(outcome(schema, 12)).toBe(`${rule} (got 12)`);
    },
  );
});

describe('requestIdSchema', () => {
  it('accepts dots, dashes and underscores up to 128 characters', () => {
    expect(requestIdSchema.parse('req.1_a-B')).toBe('req.1_a-B');
    expect(requestIdSchema.parse('r'.repeat(128))).toBe('r'.repeat(128));
  });

  it.each([[''], ['a b'], ['r'.repeat(129)]])('rejects %j', (value) => {
    expect(outcome(requestIdSchema, value)).toMatch(
      /^must be a request id of 1 to 128 letters, digits, "\.", "_" or "-" \(got /,
    );
  });
});

describe('list envelopes', () => {
  const meta = {
    request_id: 'req_1',
    has_more: true,
    next_cursor: 'abc',
    scan_upper_bound: '2026-01-31T12:00:00.000001Z',
  };

  it('accepts a page, keeping unknown fields and leaving records unvalidated', () => {
    const page = { data: [{ anything: 1 }, 'odd'], meta: { ...meta, extra: 'kept' }, links: {} };
    expect(listEnvelopeSchema.parse(page)).toEqual(page);
  });

  it.each(['2026-01-31T12:00Z', '2026-01-31T12:00:00.123456789Z'])('accepts scan_upper_bound %s verbatim', (bound) => {
    expect(listMetaSchema.parse({ ...meta, scan_upper_bound: bound }).scan_upper_bound).toBe(bound);
  });

  it('accepts the last page: next_cursor null, no scan_upper_bound', () => {
    const last = { request_id: 'req_1', has_more: false, next_cursor: null };
    expect(listMetaSchema.parse(last)).toEqual(last);
  });

  it.each([
    ['next_cursor', undefined, 'next_cursor: is missing (send null when there is no value)'],
    ['next_cursor', 5, 'next_cursor: must be a cursor string or null (got 5)'],
    ['has_more', 'true', 'has_more: must be true or false (got "true")'],
    ['request_id', undefined, 'request_id: is missing'],
    ['scan_upper_bound', '2026-01-31T12:00+01:00', `scan_upper_bound: ${TS} (got "2026-01-31T12:00+01:00")`],
  ])('meta.%s = %j is rejected', (field, value, message) => {
    const broken: Record<string, unknown> = { ...meta, [field]: value };
    if (value === undefined) delete broken[field];
    expect(outcome(listMetaSchema, broken)).toBe(message);
  });

  it('names the envelope part that is wrong', () => {
    expect(outcome(listEnvelopeSchema, { data: {}, meta })).toBe('data: must be an array (got an object)');
    expect(outcome(listEnvelopeSchema, { data: [] })).toBe('meta: is missing');
  });
});
