import { describe, expect, it } from 'vitest';
import { envelopeDuplicateKey } from '../../src/json/duplicate-keys.ts';

describe('envelopeDuplicateKey', () => {
  it('names a key the envelope or its meta gives twice, however it is escaped', () => {
    expect(envelopeDuplicateKey('{"data":[],"meta":{"has_more":true,"has_more":false}}')).toBe('meta.has_more');
    expect(envelopeDuplicateKey('{ "meta" : { "next_cursor":"a", "next\\u005fcursor" : null } }')).toBe(
      'meta.next_cursor',
    );
    expect(envelopeDuplicateKey('{"data":[1],"meta":{},"data":[]}')).toBe('data');
  });

  it('passes an envelope whose records repeat keys, or hold braces and quotes in strings', () => {
    const records = '[{"id":"a","x":1,"x":2},{"text":"} \\"meta\\": {\\"has_more\\":1","n":[[{}]]}]';
    expect(envelopeDuplicateKey(`{"data":${records},"meta":{"has_more":false,"next_cursor":null}}`)).toBeUndefined();
    expect(envelopeDuplicateKey('{"meta":{"request_id":"r\\\\"},"data":{}}')).toBeUndefined();
    expect(envelopeDuplicateKey('[]')).toBeUndefined();
  });
});
