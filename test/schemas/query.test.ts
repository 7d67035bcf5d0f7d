import { describe, expect, it } from 'vitest';
import {
  cursorSchema,
  idempotencyKeySchema,
  includeParamSchema,
  mentionProviderSchema,
  pageLimitSchema,
} from '../../schemas/query.ts';
import { outcome } from './parse-result.ts';

describe('pageLimitSchema', () => {
  it.each([
    [undefined, 100],
    ['1', 1],
    ['500', 500],
    [250, 250],
  ])('%j -> %j', (value, limit) => {
    expect(pageLimitSchema.parse(value)).toBe(limit);
  });

  it.each([
    ['0', '0'],
    ['501', '501'],
    ['abc', '"abc"'],
    ['', '""'],
    ['2.5', '"2.5"'],
    [' 7 ', '" 7 "'],
    [-3, '-3'],
  ])('%j is refused as written', (value, shown) => {
    expect(outcome(pageLimitSchema, value)).toBe(`must be an integer from 1 to 500 (got ${shown})`);
  });
});

describe('other parameters', () => {
  it('cursor: 1 to 22000 characters', () => {
    expect(outcome(cursorSchema, 'c'.repeat(22000))).toBe('ok');
    expect(outcome(cursorSchema, '')).toBe('must be a cursor of 1 to 22000 characters (got "")');
    expect(outcome(cursorSchema, 'c'.repeat(22001))).toBe(
      `must be a cursor of 1 to 22000 characters (got "${'c'.repeat(40)}"... (22001 characters))`,
    );
  });

  it.each(['providers', 'competitors', ' providers , competitors ', 'competitors,providers'])(
    'include accepts %j',
    (value) => {
      expect(outcome(includeParamSchema, value)).toBe('ok');
    },
  );

  it.each(['', 'providers,', 'trends', 'providers;competitors'])('include refuses %j', (value) => {
    expect(outcome(includeParamSchema, value)).toBe(
      `must be a comma-separated list of providers and/or competitors (got ${JSON.stringify(value)})`,
    );
  });

  it('provider is one of the four documented providers', () => {
    expect(outcome(mentionProviderSchema, 'gemini')).toBe('ok');
    expect(outcome(mentionProviderSchema, 'claude')).toBe(
      'must be chatgpt, gemini, perplexity, google_ai_overview (got "claude")',
    );
  });

  it('Idempotency-Key: 16 to 255 visible ASCII characters', () => {
    expect(outcome(idempotencyKeySchema, 'k'.repeat(16))).toBe('ok');
    expect(outcome(idempotencyKeySchema, `${'~!'.repeat(127)}x`)).toBe('ok');
    for (const bad of ['k'.repeat(15), 'k'.repeat(256), 'with space key 12345', 'ünïcödé-key-123456']) {
      expect(outcome(idempotencyKeySchema, bad)).toMatch(/^must be 16 to 255 visible ASCII characters \(got "/);
    }
  });
});
