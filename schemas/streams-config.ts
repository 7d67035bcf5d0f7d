/**
 * The `streams:` block of the config: one key per stream, holding that stream's options. The
 * stream names and their options are config contract, so they live here; each stream in
 * `src/streams/` takes its options from this list (docs/architecture.md#adding-a-stream).
 */
import { z } from 'zod';
import { MENTION_PROVIDERS } from './keys.ts';

/** The settings of a stream that takes none: `streams.<name>: {}`. */
const NO_OPTIONS = z.strictObject({});

/** Every stream's options, in the order a run reads the streams. */
export const STREAM_OPTIONS = {
  websites: NO_OPTIONS,
  analytics: z
    .strictObject({
      include: z
        .array(z.enum(['providers', 'competitors']))
        .max(2)
        .default(['providers', 'competitors'])
        .meta({
          title: 'Analytics breakdowns',
          description:
            'Which breakdowns to load beside the snapshot: providers (analytics_providers), competitors (analytics_competitors).',
        }),
    })
    .meta({ title: 'analytics', description: 'Options of the analytics snapshot.' }),
  analytics_history: NO_OPTIONS,
  mentions: z
    .strictObject({
      providers: z.array(z.enum(MENTION_PROVIDERS)).min(1).optional().meta({
        title: 'Mention providers',
        description:
          'Only these providers, each with its own scan and state scope; absent: every provider in one scan.',
      }),
    })
    .meta({ title: 'mentions', description: 'Options of the mentions feed.' }),
  citations: NO_OPTIONS,
} as const;

export type StreamOptionsName = keyof typeof STREAM_OPTIONS;

type StreamsConfigShape = { readonly [Name in StreamOptionsName]: z.ZodOptional<(typeof STREAM_OPTIONS)[Name]> };

export const streamsConfigSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(STREAM_OPTIONS).map(([name, options]) => [name, options.optional()]),
  ) as StreamsConfigShape,
);
