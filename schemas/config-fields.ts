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
