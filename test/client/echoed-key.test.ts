import { describe, expect, it } from 'vitest';
import { echoedKey } from '../../src/client/echoed-key.ts';
import { parseJsonBody } from '../../src/client/json-body.ts';
import { serializeJson } from '../../src/json/serialize-json.ts';

const KEY = 'aivis_live_0123456789abcdef';
const allEscaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const oneEscaped = `\\u0061${KEY.slice(1)}`;

describe('echoedKey', () => {
  const key = echoedKey(KEY);

  it('finds and redacts the key however the JSON text escaped it: in strings, nested, in object keys, in _raw alike', () => {
    const text = `{"sentence_text":"key ${allEscaped} and ${oneEscaped}","n":12345678901234567890,"deep":[{"x":["${KEY}"]}],"by_${oneEscaped}":{"__proto__":"${allEscaped}"}}`;
    const { value, raw } = parseJsonBody(text);
    expect(value).not.toBe(raw); // the big integer: raw is a second parse
    expect(key.count(value)).toBe(5);
    for (const parsed of [key.redact(value), key.redact(raw)]) {
      expect(JSON.stringify(parsed)).not.toContain(KEY);
      const record = parsed as Record<string, unknown>;
      expect(record.sentence_text).toBe('key [REDACTED] and [REDACTED]');
      expect(record.deep).toEqual([{ x: ['[REDACTED]'] }]);
      expect(Object.keys(record)).toEqual(['sentence_text', 'n', 'deep', 'by_[REDACTED]']);
      // `__proto__` stays an own key, not a prototype.
      const renamed = record['by_[REDACTED]'] as object;
      expect(Object.getOwnPropertyDescriptor(renamed, '__proto__')?.value).toBe('[REDACTED]');
      expect(Object.getPrototypeOf(renamed)).toBe(Object.prototype);
    }
    expect(JSON.stringify(raw)).toContain('"n":12345678901234567890');
  });

  it('walks a record nested 10,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}"${KEY}"${']'.repeat(10_000)}`) as unknown;
    expect(key.count(deep)).toBe(1);
    const text = serializeJson(key.redact(deep));
    expect(text).toContain('"[REDACTED]"');
    expect(text).not.toContain(KEY);
  });

  it('redacts a bare string, and leaves a value without the key untouched', () => {
    expect(key.redact(KEY)).toBe('[REDACTED]');
    const clean = { a: ['b'] };
    expect(key.count(clean)).toBe(0);
    expect(key.redact(clean)).toEqual({ a: ['b'] });
  });

  it('ignores a key too short to tell from ordinary text', () => {
    expect(echoedKey('short').count({ a: 'short' })).toBe(0);
  });
});
