import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/cli/duration.ts';
import { ConfigError, ExitCode } from '../../src/errors.ts';

describe('parseDuration', () => {
  it.each([
    ['30s', 30],
    ['90m', 5400],
    ['6h', 21_600],
    ['2d', 172_800],
    ['007h', 25_200],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseDuration(text, '--max-staleness')).toBe(seconds);
  });

  it('is undefined when the flag is absent', () => {
    expect(parseDuration(undefined, '--max-staleness')).toBeUndefined();
  });

  const notADuration = (text: string) =>
    `--max-staleness "${text}" is not a duration: write a whole number and one unit (s, m, h or d), like 90m, 6h or 2d`;
  it.each([
    ['90', notADuration('90')],
    ['6H', notADuration('6H')],
    ['1.5h', notADuration('1.5h')],
    ['1h30m', notADuration('1h30m')],
    [' 6h', notADuration(' 6h')],
    ['-2d', notADuration('-2d')],
    ['2w', notADuration('2w')],
    ['', notADuration('')],
    ['0m', '--max-staleness "0m" is zero: every stream would be stale at once'],
    ['99999999999999999d', '--max-staleness "99999999999999999d" is longer than any clock can count'],
  ])('refuses %j with exit 2', (text, message) => {
    const attempt = () => parseDuration(text, '--max-staleness');
    expect(attempt).toThrow(new ConfigError(message));
    expect(attempt).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
  });

  it('refuses the flag given twice', () => {
    expect(() => parseDuration(['6h', '2d'], '--max-staleness')).toThrow(
      '--max-staleness is given 2 times: give it once',
    );
  });
});
