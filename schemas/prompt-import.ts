/**
 * The body of POST .../prompts:import (spec 2.8). Request objects are strict, unlike responses:
 * the API rejects unknown item fields, and refusing them here names the line before anything
 * is sent. Lengths count Unicode code points.
 */
import { z } from 'zod';
import { codePoints } from './common.ts';
import { mustBe, mustBeOrNull, preview } from './issue-message.ts';

export const SEARCH_INTENTS = ['informational', 'commercial', 'transactional'] as const;
export const CLASSIFICATION_MODES = ['auto', 'provided_only'] as const;
/** Standard journey tags (spec 2.8 rule 2); `auto` needs one in every provided tag list. */
export const JOURNEY_TAGS = [
  'Discovery',
  'Comparison',
  'Evaluation',
  'Validation',
  'Objections',
  'Alternatives',
  'Implementation',
] as const;

/**
 * The spec's dedup normalization (Unicode, case, whitespace; punctuation kept). Its exact
 * Unicode form is not shown: NFKC is our choice. Used for tag uniqueness and journey tags.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

const NORMALIZED_JOURNEY_TAGS = new Set(JOURNEY_TAGS.map(normalizeText));

const optionalText = (max: number) =>
  z
    .string({ error: mustBeOrNull(`a string of at most ${max} characters`) })
    .refine((value) => codePoints(value) <= max)
    .meta({ maxLength: max })
    .nullable()
    .optional();

/** At most 20 tags of at most 80 characters, unique after normalization. */
export const tagsSchema = z
  .array(
    z
      .string({ error: mustBe('a tag of at most 80 characters') })
      .refine((tag) => codePoints(tag) <= 80)
      .meta({ maxLength: 80 }),
    { error: mustBe('an array of at most 20 tags') },
  )
  .max(20)
  .superRefine((tags, ctx) => {
    const seen = new Map<string, number>();
    tags.forEach((tag, index) => {
      const first = seen.get(normalizeText(tag));
      if (first === undefined) seen.set(normalizeText(tag), index);
      else
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `repeats tags[${first}] after normalization (got ${preview(tag)})`,
        });
    });
  });

const languageSchema = z
  .string({ error: mustBe('a lowercase two-letter ISO 639-1 code such as en') })
  .regex(/^[a-z]{2}$/);
const searchIntentSchema = z.enum(SEARCH_INTENTS, { error: mustBe(SEARCH_INTENTS.join(', ')) });
export const clientIdSchema = z
  .string({ error: mustBe('1 to 128 letters, digits, ".", "_" or "-"') })
  .regex(/^[A-Za-z0-9._-]{1,128}$/);

/** The prompt text is never echoed into an error: only its length. */
const promptTextSchema = z
  .string({
    error: (issue) =>
      typeof issue.input === 'string'
        ? `must be 5 to 2000 characters after trimming (got ${codePoints(issue.input.trim())})`
        : mustBe('a string of 5 to 2000 characters after trimming')(issue),
  })
  .refine((text) => {
    const length = codePoints(text.trim());
    return length >= 5 && length <= 2000;
  })
  .meta({ minLength: 5, maxLength: 2000 });

export const promptImportItemSchema = z.strictObject(
  {
    prompt_text: promptTextSchema,
    client_id: clientIdSchema.optional(),
    tags: tagsSchema.optional(),
    language: languageSchema.optional(),
    search_intent: searchIntentSchema.optional(),
    category: optionalText(100),
    topic: optionalText(120),
    seed_keyword: optionalText(255),
  },
  { error: mustBe('an object') },
);
export type PromptImportItem = z.infer<typeof promptImportItemSchema>;

export const promptImportDefaultsSchema = z.strictObject(
  { tags: tagsSchema.optional(), language: languageSchema.optional(), search_intent: searchIntentSchema.optional() },
  { error: mustBe('an object (send {} when unused)') },
);
export type PromptImportDefaults = z.infer<typeof promptImportDefaultsSchema>;

export const classificationSchema = z.strictObject(
  { mode: z.enum(CLASSIFICATION_MODES, { error: mustBe(CLASSIFICATION_MODES.join(' or ')) }) },
  { error: mustBe('an object { mode }') },
);
export type ClassificationMode = (typeof CLASSIFICATION_MODES)[number];

type Context = z.core.$RefinementCtx<PromptImportRequest>;

/** `client_id` is a correlation value, so it must be unique within the request. */
function checkClientIds(items: readonly PromptImportItem[], ctx: Context): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    if (item.client_id === undefined) return;
    const first = seen.get(item.client_id);
    if (first === undefined) seen.set(item.client_id, index);
    else
      ctx.addIssue({
        code: 'custom',
        path: ['items', index, 'client_id'],
        message: `repeats items[${first}].client_id ${preview(item.client_id)}`,
      });
  });
}

/**
 * Rule 2 of `auto`: a provided tag list is non-empty and holds a journey tag. Matched after
 * normalization: the spec does not say whether the match is case-sensitive, and refusing
 * "discovery" locally would block an upload the service may accept.
 */
function checkJourneyTags(tags: readonly string[] | undefined, path: (string | number)[], ctx: Context): void {
  if (tags === undefined || tags.some((tag) => NORMALIZED_JOURNEY_TAGS.has(normalizeText(tag)))) return;
  ctx.addIssue({
    code: 'custom',
    path,
    message: `must hold at least one journey tag (${JOURNEY_TAGS.join(', ')}) when classification is auto`,
  });
}

/** The request body. Cross-item rules name the item index, which the importer maps to its line. */
export const promptImportRequestSchema = z
  .strictObject(
    {
      items: z
        .array(promptImportItemSchema, { error: mustBe('an array of 1 to 1000 items') })
        .min(1)
        .max(1000),
      defaults: promptImportDefaultsSchema,
      classification: classificationSchema,
      validate_only: z.boolean({ error: mustBe('true or false') }),
    },
    { error: mustBe('an object') },
  )
  .superRefine((request, ctx) => {
    checkClientIds(request.items, ctx);
    if (request.classification.mode === 'auto') {
      checkJourneyTags(request.defaults.tags, ['defaults', 'tags'], ctx);
      for (const [index, item] of request.items.entries()) checkJourneyTags(item.tags, ['items', index, 'tags'], ctx);
      return;
    }
    // provided_only never classifies, so each item needs a language from itself or the defaults.
    if (request.defaults.language !== undefined) return;
    request.items.forEach((item, index) => {
      if (item.language !== undefined) return;
      ctx.addIssue({
        code: 'custom',
        path: ['items', index, 'language'],
        message: 'is missing (classification provided_only needs a language on the item or in defaults)',
      });
    });
  });
export type PromptImportRequest = z.infer<typeof promptImportRequestSchema>;
