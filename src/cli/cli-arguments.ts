/** Parsing of the list and time flags shared by `sync`, `backfill` and `state`. */
import { updatedSinceSchema } from '../../schemas/index.ts';
import { ConfigError } from '../errors.ts';
import { STREAM_NAMES, type StreamName } from '../tables/index.ts';

export function parseList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function parseStreams(value: string | undefined, flag: string): StreamName[] | undefined {
  const names = parseList(value);
  for (const name of names ?? []) {
    if (!(STREAM_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError(`unknown stream "${name}" in ${flag} (streams: ${STREAM_NAMES.join(', ')})`);
    }
  }
  return names as StreamName[] | undefined;
}

export function parseWebsites(value: string | undefined): string[] | undefined {
  const ids = parseList(value);
  for (const id of ids ?? []) {
    if (!/^web_[A-Za-z0-9_-]+$/.test(id)) throw new ConfigError(`"${id}" in --websites is not a website id (they look like web_123)`);
  }
  return ids;
}

export function parseSince(value: string): string {
  if (!updatedSinceSchema.safeParse(value).success) {
    throw new ConfigError(`--since "${value}" is not a UTC timestamp such as 2026-01-31T00:00:00Z`);
  }
  return value;
}
