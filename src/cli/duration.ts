/** `--max-staleness 6h`: a whole number and one unit, as a data engineer writes an SLA. */
import { ConfigError } from '../errors.ts';

const SECONDS_PER_UNIT = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const DURATION = /^(\d+)([smhd])$/;

/**
 * Seconds of a DURATION flag (`30s`, `90m`, `6h`, `2d`), or undefined when the flag is absent.
 * Zero, fractions, compound forms (`1h30m`), other units and a flag given twice are usage
 * errors that name the flag.
 * @example parseDuration('90m', '--max-staleness') // 5400
 */
export function parseDuration(value: string | string[] | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new ConfigError(`${flag} is given ${value.length} times: give it once`);
  const match = DURATION.exec(value);
  if (!match) {
    throw new ConfigError(
      `${flag} "${value}" is not a duration: write a whole number and one unit (s, m, h or d), like 90m, 6h or 2d`,
    );
  }
  const seconds = Number(match[1]) * SECONDS_PER_UNIT[match[2] as keyof typeof SECONDS_PER_UNIT];
  if (seconds === 0) throw new ConfigError(`${flag} "${value}" is zero: every stream would be stale at once`);
  if (!Number.isSafeInteger(seconds)) throw new ConfigError(`${flag} "${value}" is longer than any clock can count`);
  return seconds;
}
