/** A website of the workspace (spec 2.2). */
import { z } from 'zod';
import { looseRecord, nullableTextSchema, nullableTimestampSchema, websiteIdSchema } from './common.ts';
import { mustBe } from './issue-message.ts';

export const websiteSchema = looseRecord({
  id: websiteIdSchema,
  domain_url: z.url({ error: mustBe('a URI such as https://example.com') }),
  country: z.string({ error: mustBe('two uppercase letters such as US') }).regex(/^[A-Z]{2}$/),
  language: nullableTextSchema(1, 128),
  industry_niche: nullableTextSchema(1, 500),
  /** Null until the first analysis: the website is tracked but not yet measured. */
  last_analysis_at: nullableTimestampSchema,
});
export type Website = z.infer<typeof websiteSchema>;
