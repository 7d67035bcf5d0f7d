/** Brand-mention evidence (spec 2.5). Every field is required; `website_id` comes from the path. */
import { z } from 'zod';
import { MAX_COUNT } from './keys.ts';
import {
  analysisIdSchema,
  looseRecord,
  mentionIdSchema,
  percentSchema,
  providerNameSchema,
  timestampSchema,
} from './common.ts';
import { mustBe, mustBeOrNull } from './issue-message.ts';

/** Where a brand name sits in `sentence_text`. `end > start` is not documented, so not checked. */
export const mentionSpanSchema = looseRecord({
  start: z.int({ error: mustBe('an integer of at least 0') }).min(0),
  end: z.int({ error: mustBe('an integer of at least 1') }).min(1),
});

export const mentionSchema = looseRecord({
  id: mentionIdSchema,
  analysis_id: analysisIdSchema,
  observed_at: timestampSchema,
  available_at: timestampSchema,
  provider: providerNameSchema,
  sentence_text: z.string({ error: mustBe('a string') }),
  sentence_text_truncated: z.boolean({ error: mustBe('true or false') }),
  position_in_response: z
    .int({ error: mustBeOrNull(`an integer from 1 to ${MAX_COUNT}`) })
    .min(1)
    .max(MAX_COUNT)
    .nullable(),
  sentiment: percentSchema,
  mention_spans: z.array(mentionSpanSchema, { error: mustBe('an array') }),
});
export type Mention = z.infer<typeof mentionSchema>;
