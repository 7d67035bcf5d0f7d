/**
 * Citation evidence (spec 2.6). The spec does not show its fields, so only `id` is required
 * (any non-empty string of at most 128 characters: no prefix is documented). The fields the
 * `citations` table keeps in columns are checked when present, because they land in typed
 * columns; everything else passes untouched into `_raw`.
 */
import { z } from 'zod';
import { analysisIdSchema, looseRecord, providerNameSchema, textSchema, timestampSchema, websiteIdSchema } from './common.ts';

export const citationSchema = looseRecord({
  id: textSchema(1, 128),
  website_id: websiteIdSchema.optional(),
  analysis_id: analysisIdSchema.nullish(),
  provider: providerNameSchema.nullish(),
  observed_at: timestampSchema.nullish(),
  available_at: timestampSchema.nullish(),
});
export type Citation = z.infer<typeof citationSchema>;
