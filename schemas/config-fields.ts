/** Field schemas the config's blocks share: the top level's (config.ts) and each destination's (destinations/). */
import { z } from 'zod';

export const nonEmpty = z.string().min(1);
/** Beside each URL that may be `http://` (see insecure-http.ts). */
export const allowInsecureHttp = z
  .boolean()
  .optional()
  .describe(
    'true lets the URL beside it be http:// to a host that is not loopback: its secrets then cross the network in clear.',
  );
export const identifier = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,127}$/,
    'must be letters, digits and underscores, starting with a letter or underscore',
  );

/** A DURATION: a whole number and one unit (`30s`, `90m`, `24h`, `2d`). */
export const duration = z
  .string()
  .regex(/^\d+[smhd]$/, 'must be a whole number and one unit (s, m, h or d), like 90m, 24h or 2d');

/**
 * Change-driven reads (docs/configuration.md#change-driven-reads), the same keys in a source
 * block and in the Airbyte/Singer JSON config. Absent keys take their defaults where they are
 * read (`changeSettings` in src/plan/change-settings.ts).
 */
export const changeDrivenReadFields = {
  skip_unchanged: z
    .boolean()
    .optional()
    .describe(
      "true: a website's stream is read only when the listing shows a new analysis, it is settling or its sweep is due; false (default): every website every run.",
    ),
  sweep_every: duration
    .refine((text) => !/^0+[smhd]$/.test(text), 'must be longer than zero')
    .optional()
    .describe(
      'Under skip_unchanged, every website is still read whole once per this period, at its own slot (default 24h).',
    ),
  settle_for: duration
    .optional()
    .describe(
      'Under skip_unchanged, a website with a new analysis is read on every run for this long after it was first seen (default 2h).',
    ),
};
