import { describe, expect, it } from 'vitest';
import { serializeJson } from '../../src/json/serialize-json.ts';

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

describe('serializeJson', () => {
  it.each([
    [null],
    ['text with "quotes", \u0000 and ✓'],
    [-0.5],
    [true],
    [[]],
    [{}],
    [{ b: [1, { c: null, a: 'x' }], a: { '': 2, é: [false] } }],
    [[1, [2, [3, []]], { k: [] }]],
  ])('writes %j exactly as JSON.stringify does', (value) => {
    expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  it('leaves out members without a JSON form and writes array holes as null, as JSON.stringify does', () => {
    const value = { a: undefined, b: [undefined, Number.NaN, Infinity], c: 1 };
    expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  it('sorts object keys by UTF-16 code units at every level when asked', () => {
    expect(serializeJson({ b: 1, a: { z: [{ y: 1, x: 2 }], B: 0 }, é: 2, Z: 3 }, { sortKeys: true })).toBe(
      '{"Z":3,"a":{"B":0,"z":[{"x":2,"y":1}]},"b":1,"é":2}',
    );
  });

  it('writes integers kept exact with JSON.rawJSON as sent', () => {
    expect(serializeJson({ n: rawJson('12345678901234567890') })).toBe('{"n":12345678901234567890}');
  });

  it('writes a value nested 100,000 levels deep, where JSON.stringify overflows the stack', () => {
    let value: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) value = i % 2 ? { a: value } : [value];
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    const text = serializeJson(value);
    expect(text.length).toBe(100_000 * 2 + 50_000 * 4 + '"bottom"'.length);
    expect(text.startsWith('{"a":[{"a":[')).toBe(true);
  });
});
