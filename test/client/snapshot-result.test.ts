/** A snapshot response checked whole by the client (`validateSnapshot`), as a record is (`validateRecord`). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOO_DEEP, validateSnapshot } from '../../src/client/record-result.ts';
import { MAX_RECORD_DEPTH } from '../../src/json/nesting-depth.ts';

const schemas = { dataSchema: z.object({ visibility: z.number() }), metaSchema: z.object({ as_of: z.string() }) };

/** `levels` nested objects around a number. */
const nested = (levels: number): unknown => (levels === 0 ? 1 : { deeper: nested(levels - 1) });

describe('validateSnapshot', () => {
  it('passes a snapshot whose data and meta fit their schemas', () => {
    const envelope = { data: { visibility: 0.5 }, meta: { as_of: '2026-01-01T00:00:00Z' } };
    expect(validateSnapshot(schemas, envelope)).toEqual({
      ok: true,
      value: { data: { visibility: 0.5 }, meta: { as_of: '2026-01-01T00:00:00Z' } },
      raw: envelope,
    });
  });

  it('rejects it whole, with the reason: too deep before any schema, then data, then meta', () => {
    const reason = (envelope: { data?: unknown; meta?: unknown }) => {
      const result = validateSnapshot(schemas, envelope);
      return result.ok ? undefined : result.error;
    };
    expect(reason({ data: { visibility: 'high', deep: nested(MAX_RECORD_DEPTH + 1) }, meta: {} })).toBe(TOO_DEEP);
    expect(reason({ data: { visibility: 1 }, meta: { as_of: 1, deep: nested(MAX_RECORD_DEPTH + 1) } })).toBe(TOO_DEEP);
    expect(reason({ data: { visibility: 'high' }, meta: { as_of: 1 } })).toMatch(/^visibility: /);
    expect(reason({ data: { visibility: 1 }, meta: { as_of: 1 } })).toMatch(/^meta: as_of: /);
  });
});
