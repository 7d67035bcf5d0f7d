import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, textNestingDepth } from '../../src/json/nesting-depth.ts';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

describe('nesting depth', () => {
  it.each([
    ['a scalar', 0, 1],
    ['an empty array', 1, []],
    ['{"a":[1,{"b":{}}]}', 4, { a: [1, { b: {} }] }],
    ['a value built 100 levels deep', 100, nested(100)],
    ['a value built 100,000 levels deep', 100_000, nested(100_000)],
  ])('%s nests %i levels', (_what, levels, value) => {
    expect(nestsDeeperThan(value, levels)).toBe(false);
    if (levels > 0) expect(nestsDeeperThan(value, levels - 1)).toBe(true);
    expect(textNestingDepth(levels > 1000 ? '['.repeat(levels) + ']'.repeat(levels) : JSON.stringify(value))).toBe(
      levels,
    );
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(textNestingDepth('{"a":"[[{{\\"]]","b":["x\\\\"]}')).toBe(2);
  });
});
