/**
 * Every stream, once. Names, tables, the `streams:` keys of the config, what `aivis streams`
 * prints, what backfill accepts and how a sync reads each stream all derive from this list
 * (docs/architecture.md#adding-a-stream).
 */
import type { z } from 'zod';
import type { AivisConfig } from '../../schemas/config.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import { analyticsStream } from './analytics.ts';
import { analyticsHistoryStream } from './analytics-history.ts';
import { citationsStream } from './citations.ts';
import { mentionsStream } from './mentions.ts';
import { type AnyStream, streamTables } from './stream.ts';
import { websitesStream } from './websites.ts';

/** In the order a run reads them: the listing, then each website's snapshot and feeds. */
export const STREAMS = [
  websitesStream,
  analyticsStream,
  analyticsHistoryStream,
  mentionsStream,
  citationsStream,
] as const;

export type Stream = (typeof STREAMS)[number];
export type StreamName = Stream['name'];

export const STREAM_NAMES: readonly StreamName[] = STREAMS.map((stream) => stream.name);

/** The tables each stream writes (docs/architecture.md#tables). */
export const STREAM_TABLES = Object.fromEntries(
  STREAMS.map((stream) => [stream.name, streamTables(stream)]),
) as Readonly<Record<StreamName, readonly TableSpec[]>>;

/** The streams `aivis backfill` re-reads from a point in time: all but the listing, which every sync reads whole. */
export const BACKFILL_STREAM_NAMES: readonly StreamName[] = STREAMS.filter((s) => s.kind !== 'listing').map(
  (s) => s.name,
);

/** The feeds, read per website from an `updated_since`: the streams whose closed window `aivis verify` can re-read. */
export const FEED_STREAMS = STREAMS.filter((s): s is Extract<Stream, { kind: 'feed' }> => s.kind === 'feed');

/** A stream's options under this config: its `streams.<name>` entry, or its defaults when the config names no streams. */
export function streamOptions<Options extends z.ZodType>(
  stream: { readonly name: string; readonly options: Options },
  config: AivisConfig,
): z.output<Options> {
  const configured = (config.streams as Readonly<Record<string, unknown>> | undefined)?.[stream.name];
  return (configured ?? stream.options.parse({})) as z.output<Options>;
}

/** A stream read per website: a snapshot or a feed. */
export type WebsiteStream = Exclude<Stream, { kind: 'listing' }>;

/**
 * The streams each website's sync reads, in registry order, of those `selected`; the listing is read once before any website.
 * @param streams the registered streams (`STREAMS`); a test registers its own (docs/architecture.md#adding-a-stream)
 */
export function websiteStreams<S extends AnyStream = Stream>(
  selected: readonly string[],
  streams: readonly S[] = STREAMS as readonly AnyStream[] as readonly S[],
): Exclude<S, { kind: 'listing' }>[] {
  return streams.filter((s): s is Exclude<S, { kind: 'listing' }> => s.kind !== 'listing' && selected.includes(s.name));
}
