import { describe, expect, it } from 'vitest';
import { parseJsonRefusal } from './parse-json-check.ts';

describe("the stand-in's PARSE_JSON check", () => {
  it('takes JSON whose strings and keys hold colons', () => {
    expect(parseJsonRefusal('{"a:b": "c:d", "e": [":", {"f": "::"}]}')).toBeUndefined();
  });

  it('refuses what JSON.parse takes but Snowflake does not, where it is', () => {
    expect(parseJsonRefusal('{"a": 1, "a": "\\u003a"}')).toEqual({ reason: 'duplicate object attribute "a"', pos: 9 });
    expect(parseJsonRefusal('{"x": {"k": ":"}, "y": {"k": 1, "k": ":"}}')).toEqual({
      reason: 'duplicate object attribute "k"',
      pos: 32,
    });
    expect(parseJsonRefusal(`[1${'0'.repeat(210)}e99]`)).toEqual({ reason: 'number out of range', pos: 1 });
    expect(parseJsonRefusal('["\\udc00"]')).toEqual({ reason: 'invalid Unicode escape (lone low surrogate)', pos: 2 });
  });
});
