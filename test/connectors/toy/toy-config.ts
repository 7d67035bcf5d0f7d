/**
 * The toy destination's `destination:` block: what `schemas/destinations/<name>.ts` is for a
 * real one. It has a secret (`token`) and a file path (`folder`) so the test sees the core
 * handle both through the descriptor.
 */
import { z } from 'zod';

export const toyConfigSchema = z.strictObject({
  type: z.literal('toy'),
  folder: z.string().min(1).describe('Where the toy keeps its data; relative to the config file.'),
  token: z.string().min(1).describe('Write it as ${VAR}; a token written into the YAML is refused.'),
  schema: z.string().default('aivis'),
});

export type ToyConfig = z.infer<typeof toyConfigSchema>;

/** One row per flush: every unit that carries rows is its own commit, which the test can see. */
export const TOY_FLUSH_SIZING = { maxRowsPerFlush: 1, maxSecondsPerFlush: 3600 };
