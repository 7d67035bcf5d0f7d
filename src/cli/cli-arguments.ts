/** Parsing of the list, time and switch flags shared by `sync`, `backfill`, `state` and `import-prompts`. */
import { updatedSinceSchema } from '../../schemas/index.ts';
import { closestMatch } from '../config/closest-match.ts';
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import { ConfigError } from '../errors.ts';
import { STREAM_NAMES, type StreamName } from '../streams/registry.ts';

/**
 * The list flags, spelt the same in every verb: plural, taking a comma-separated list, the
 * singular accepted as an alias (`--stream mentions` is `--streams mentions`).
 */
export const STREAMS_FLAG = {
  type: 'string',
  alias: 'stream',
  describe: 'Only these streams (comma-separated)',
} as const;
export const WEBSITES_FLAG = {
  type: 'string',
  alias: 'website',
  describe: 'Only these website ids (comma-separated)',
} as const;

/** A comma-separated flag as a list; a flag given twice is refused rather than half-read. */
export function parseList(value: string | string[] | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value))
    throw new ConfigError(`${flag} is given ${value.length} times: give it once, with a comma-separated list`);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A list that selects (streams, websites, workspaces): given but empty is a mistake, not "everything" or "nothing". */
export function parseSelection(value: string | string[] | undefined, flag: string, what: string): string[] | undefined {
  const names = parseList(value, flag);
  if (names?.length === 0) throw new ConfigError(`${flag} is empty: name at least one ${what}, or leave the flag out`);
  return names;
}

export function parseStreams(value: string | string[] | undefined, flag: string): StreamName[] | undefined {
  const names = parseSelection(value, flag, `stream (${STREAM_NAMES.join(', ')})`);
  for (const name of names ?? []) {
    if (!(STREAM_NAMES as readonly string[]).includes(name)) {
      const closest = closestMatch(name, STREAM_NAMES);
      const hint = closest === undefined ? '' : `: did you mean ${closest}?`;
      throw new ConfigError(`unknown stream "${name}" in ${flag}${hint} (streams: ${STREAM_NAMES.join(', ')})`);
    }
  }
  return names as StreamName[] | undefined;
}

export function parseWebsites(value: string | string[] | undefined, flag: string): string[] | undefined {
  const ids = parseSelection(value, flag, 'website id (they look like web_123)');
  for (const id of ids ?? []) {
    if (!/^web_[A-Za-z0-9_-]+$/.test(id))
      throw new ConfigError(`"${id}" in ${flag} is not a website id (they look like web_123)`);
  }
  return ids;
}

/** A UTC timestamp no later than `now`: a window that starts in the future reads nothing. */
export function parseSince(value: string, command: 'backfill' | 'verify', now: Date = new Date()): string {
  if (!updatedSinceSchema.safeParse(value).success) {
    throw new ConfigError(`--since "${value}" is not a UTC timestamp such as 2026-01-31T00:00:00Z`);
  }
  if (Date.parse(value) > now.getTime()) {
    throw new ConfigError(
      `--since "${value}" is in the future (now is ${now.toISOString()}): ${command} re-reads what is already there`,
    );
  }
  return value;
}

/** `--until`: a UTC timestamp after `--since` (`verify` caps it at each website's frontier). */
export function parseUntil(value: string | undefined, since: string): string | undefined {
  if (value === undefined) return undefined;
  if (!updatedSinceSchema.safeParse(value).success) {
    throw new ConfigError(`--until "${value}" is not a UTC timestamp such as 2026-01-31T00:00:00Z`);
  }
  if (microsecondTimestamp(value) <= microsecondTimestamp(since)) {
    throw new ConfigError(`--until "${value}" is not after --since "${since}": the window would be empty`);
  }
  return value;
}

/**
 * yargs reads `--full-refresh=maybe` (and `=TRUE`, `=0`) as false without a word. A switch
 * written with a value takes only `true` or `false`; anything else is a usage error.
 */
export function refuseSwitchValues(args: readonly string[], switches: readonly string[]): void {
  for (const arg of args) {
    const match = /^--([^=]+)=(.*)$/s.exec(arg);
    if (!match) continue;
    const [, written, value] = match as unknown as [string, string, string];
    const name = written.replace(/^no-/, '');
    if (!switches.includes(name) || value === 'true' || value === 'false') continue;
    throw new ConfigError(
      `--${written} is a switch and takes no value (got "${value}"): write --${name} or --no-${name}`,
    );
  }
}
