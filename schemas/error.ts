/** The error envelope of every V2 endpoint (spec 7). */
import { z } from 'zod';
import { looseRecord, requestMetaSchema, textSchema } from './common.ts';
import { mustBe } from './issue-message.ts';

/**
 * Error codes of V2 responses. `version_retired` (410) belongs to the V1 import route only,
 * so it is not listed here.
 */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_cursor',
  'unauthorized',
  'forbidden',
  'not_found',
  'idempotency_conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'temporarily_unavailable',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorDetailSchema = looseRecord({
  field: textSchema(1, 128),
  issue: textSchema(1, 256),
});

export const errorBodySchema = looseRecord({
  code: z.enum(ERROR_CODES, { error: mustBe(`one of ${ERROR_CODES.join(', ')}`) }),
  message: textSchema(1, 1024),
  details: z
    .array(errorDetailSchema, { error: mustBe('an array of at most 50 items') })
    .max(50)
    .optional(),
});

export const errorEnvelopeSchema = looseRecord({ error: errorBodySchema, meta: requestMetaSchema });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
