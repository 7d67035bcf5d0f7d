import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/client/retry-after.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    ['0', 0],
    [' 7 ', 7_000],
    ['1.2', 1_200],
    ['0.0001', 1],
  ])('delay-seconds %j -> %i ms', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it('HTTP-date in all three RFC forms, measured against the given clock', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Sun Mar  1 12:00:05 2026', NOW)).toBe(5_000);
  });

  it('a date in the past means no wait', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
  });

  it('huge values stay huge (the policy caps them)', () => {
    expect(parseRetryAfter('99999999999', NOW)).toBe(99_999_999_999_000);
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBe(Infinity);
  });

  it.each([
    undefined,
    '',
    '   ',
    '-5',
    'soon',
    '12s',
    'NaN',
    'Infinity',
    '1e3',
    'Sun, 99 Foo 2026 12:00:00 GMT',
    'Mar 2026',
  ])('absent, negative or garbage %j -> undefined', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('takes the first of a repeated header', () => {
    expect(parseRetryAfter(['3', '100'], NOW)).toBe(3_000);
  });
});
