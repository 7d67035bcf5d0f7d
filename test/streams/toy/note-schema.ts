/**
 * The toy stream's record (where a real stream's is `schemas/<name>.ts`): a note of a website,
 * loose like every record schema, so a field the bundled contract does not list is kept in `_raw`.
 */
import { z } from 'zod';
import { looseRecord, timestampSchema } from '../../../schemas/common.ts';

export const noteSchema = looseRecord({
  id: z.string(),
  title: z.string(),
  available_at: timestampSchema,
});
export type Note = z.infer<typeof noteSchema>;
