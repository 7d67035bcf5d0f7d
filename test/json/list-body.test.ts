import { describe, expect, it } from 'vitest';
import { decodeSpan, splitListBody } from '../../src/json/list-body.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const BOUNDS = { maxBytes: 1024, maxContainers: 100 };
const records = (text: string, keep = 500, maxBytes = 1024, maxContainers = 100) => {
  const body = bytes(text);
  const split = splitListBody(body, keep, { maxBytes, maxContainers })!;
  const texts: string[] = [];
  for (let i = 0; i < split.spans.length; i += 2) texts.push(decodeSpan(body, split.spans[i]!, split.spans[i + 1]!));
  return { ...split, texts };
};

describe('splitListBody', () => {
  it('finds each element of data by bracket depth, brackets and quotes inside strings ignored, and empties data in the envelope', () => {
    const split = records(
      '{"meta":{"request_id":"r1"} , "data" : [ {"a":"]}\\"[{"} ,[1,[2]],"x\\\\",12.5e3, null ,{"b":{"c":[]}}] }\n',
    );
    expect(split.texts).toEqual(['{"a":"]}\\"[{"}', '[1,[2]]', '"x\\\\"', '12.5e3', 'null', '{"b":{"c":[]}}']);
    expect(split.count).toBe(6);
    expect(JSON.parse(split.envelopeText!)).toEqual({ meta: { request_id: 'r1' }, data: [] });
  });

  it('counts every element but keeps spans for `keep` of them only', () => {
    const split = records(`{"data":[${Array.from({ length: 10 }, (_, i) => `{"id":${i}}`).join(',')}]}`, 3);
    expect(split.count).toBe(10);
    expect(split.texts).toEqual(['{"id":0}', '{"id":1}', '{"id":2}']);
  });

  it('names the first kept element longer than the record bound', () => {
    const long = `"${'x'.repeat(40)}"`;
    expect(records(`{"data":[1,${long},${long}]}`, 500, 32).oversized).toEqual({ index: 1, bytes: 42, containers: 0 });
  });

  it('names the first kept element holding more objects and arrays than the bound, strings not counted', () => {
    const dense = `[${'{},'.repeat(10)}{"a":"[[[[[[[[[["}]`;
    const split = records(`{"data":[[[1]],${dense}],"meta":{"a":[[]]}}`, 500, 1024, 11);
    expect(split.oversized).toEqual({ index: 1, bytes: dense.length, containers: 12 });
    expect(JSON.parse(split.envelopeText!)).toEqual({ data: [], meta: { a: [[]] } });
    expect(records(`{"data":[],"meta":${dense}}`, 500, 1024, 11).envelopeText).toBeUndefined();
  });

  it('does not decode an envelope larger than the record bound, and says how large it is', () => {
    const split = records(`{"data":[1],"meta":{"note":"${'x'.repeat(40)}"}}`, 500, 32);
    expect(split.envelopeText).toBeUndefined();
    expect(split.envelopeBytes).toBe(`{"data":[],"meta":{"note":"${'x'.repeat(40)}"}}`.length);
    expect(split.texts).toEqual(['1']);
  });

  it('keeps the UTF-8 of records, and a body-leading BOM is skipped as a whole-body decode skips it', () => {
    const split = records('\uFEFF{"data":["Grüße 🎉"],"meta":{}}');
    expect(split.texts).toEqual(['"Grüße 🎉"']);
    expect(JSON.parse(split.envelopeText!)).toEqual({ data: [], meta: {} });
  });

  it('empties a second data array too (the envelope check refuses the duplicate key)', () => {
    const split = records('{"data":[1],"data":[2,3]}');
    expect(split.envelopeText).toBe('{"data":[],"data":[]}');
    expect(split.texts).toEqual(['1']);
  });

  it('is undefined for a body that is not an object', () => {
    expect(splitListBody(bytes('[1,2]'), 500, BOUNDS)).toBeUndefined();
    expect(splitListBody(bytes('"data"'), 500, BOUNDS)).toBeUndefined();
  });

  it.each([
    ['cut short in a record', '{"data":[{"a":1},{"b":'],
    ['cut short in a string', '{"data":["abc'],
    ['cut short after data', '{"data":[1]'],
    ['a missing comma between records', '{"data":[1 2]}'],
    ['a missing colon', '{"data" [1]}'],
    ['text after the envelope', '{"data":[]} {"data":[]}'],
    ['an empty element', '{"data":[1,,2]}'],
  ])('throws a SyntaxError naming only an offset: %s', (_what, text) => {
    expect(() => splitListBody(bytes(text), 500, BOUNDS)).toThrow(/^JSON structure broken at byte \d+$/);
  });
});
