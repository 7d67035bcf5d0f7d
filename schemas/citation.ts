/**
 * Citation evidence (spec 2.6). The spec does not show its fields, so every JSON object is a
 * citation: no field is required and none is checked here. The stream keeps a typed column
 * only where its field is present and well-formed (`src/streams/citations.ts`); the record
 * as sent is `_raw` whatever it holds.
 */
import type { z } from 'zod';
import { looseRecord } from './common.ts';

export const citationSchema = looseRecord({});
export type Citation = z.infer<typeof citationSchema>;
