/**
 * Path, query and header parameters of V2 (spec 4, 8), shared by the sandbox that checks them,
 * the client that builds them and the OpenAPI document that publishes them.
 */
import { z } from 'zod';
import { MENTION_PROVIDERS } from './keys.ts';
import { mustBe } from './issue-message.ts';

/**
 * `limit` of every list endpoint: 1 to 500, 100 when absent. Query values arrive as text, so a
 * digit string is read as its number; anything else ("abc", "2.5", " 7 ") is refused as written
 * rather than coerced into a misleading NaN or 0.
 */
export const pageLimitSchema = z
  .preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z
      .int({ error: mustBe('an integer from 1 to 500') })
      .min(1)
      .max(500),
  )
  .default(100);

/** The spec's longest cursor (part 8, `cursor`: 1 to 22,000 characters). */
export const MAX_CURSOR_LENGTH = 22_000;

/** An opaque cursor; bound to the filters it was issued with (spec 4.10). */
export const cursorSchema = z
  .string({ error: mustBe(`a cursor of 1 to ${MAX_CURSOR_LENGTH} characters`) })
  .min(1)
  .max(MAX_CURSOR_LENGTH);

/** `include` of the analytics read: a comma list of providers/competitors, spaces tolerated. */
export const includeParamSchema = z
  .string({ error: mustBe('a comma-separated list of providers and/or competitors') })
  .regex(/^\s*(?:providers|competitors)(?:\s*,\s*(?:providers|competitors))*\s*$/);

/** `provider` filter of the mentions feed. */
export const mentionProviderSchema = z.enum(MENTION_PROVIDERS, { error: mustBe(MENTION_PROVIDERS.join(', ')) });

/** `Idempotency-Key` of an import: 16 to 255 visible ASCII characters. */
export const idempotencyKeySchema = z
  .string({ error: mustBe('16 to 255 visible ASCII characters') })
  .regex(/^[\x21-\x7E]{16,255}$/);
