import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorEnvelopeSchema } from '../../schemas/index.ts';
import { withField } from './fixtures.ts';
import { outcome } from './parse-result.ts';

const envelope = () => ({
  error: {
    code: 'invalid_request',
    message: 'limit must be at most 500',
    details: [{ field: 'limit', issue: 'too large' }],
  },
  meta: { request_id: 'req_1' },
});

describe('errorEnvelopeSchema', () => {
  it.each(ERROR_CODES)('accepts code %s', (code) => {
    expect(outcome(errorEnvelopeSchema, withField(envelope(), 'error.code', code))).toBe('ok');
  });

  it('lists the 11 V2 codes of spec part 7, not the V1-only version_retired', () => {
    expect(ERROR_CODES).toHaveLength(11);
    expect(ERROR_CODES).not.toContain('version_retired');
  });

  it('accepts a body without details and keeps unknown fields', () => {
    const body = { error: { code: 'not_found', message: 'x', hint: 'h' }, meta: { request_id: 'r', trace: 't' } };
    expect(errorEnvelopeSchema.parse(body)).toEqual(body);
  });

  it.each([
    ['error.code', 'version_retired', `error.code: must be one of ${ERROR_CODES.join(', ')} (got "version_retired")`],
    ['error.message', '', 'error.message: must be a string of 1 to 1024 characters (got "")'],
    [
      'error.message',
      'm'.repeat(1025),
      `error.message: must be a string of 1 to 1024 characters (got "${'m'.repeat(40)}"... (1025 characters))`,
    ],
    [
      'error.details',
      Array.from({ length: 51 }, () => ({ field: 'f', issue: 'i' })),
      'error.details: must be an array of at most 50 items (got an array of 51 items)',
    ],
    [
      'error.details',
      [{ field: '', issue: 'i' }],
      'error.details[0].field: must be a string of 1 to 128 characters (got "")',
    ],
    [
      'error.details',
      [{ field: 'f', issue: 'i'.repeat(257) }],
      `error.details[0].issue: must be a string of 1 to 256 characters (got "${'i'.repeat(40)}"... (257 characters))`,
    ],
    [
      'meta.request_id',
      'has space',
      'meta.request_id: must be a request id of 1 to 128 letters, digits, ".", "_" or "-" (got "has space")',
    ],
    ['meta', undefined, 'meta: is missing'],
  ])('%s = %j is rejected', (path, value, message) => {
    expect(outcome(errorEnvelopeSchema, withField(envelope(), path, value))).toBe(message);
  });
});
