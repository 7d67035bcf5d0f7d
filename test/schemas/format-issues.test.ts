import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countsSchema, formatIssues } from '../../schemas/index.ts';
import { formatPath } from '../../schemas/format-issues.ts';
import { COUNT_KEYS } from '../../schemas/keys.ts';

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  return formatIssues(result.error);
};

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['counts', 'brand_citations'], 'counts.brand_citations'],
    [['items', 3, 'tags', 0], 'items[3].tags[0]'],
    [[0, 'id'], '[0].id'],
    [['reasons', 'a b'], 'reasons["a b"]'],
    [['x', '1st'], 'x["1st"]'],
  ])('%j -> %s', (path, text) => {
    expect(formatPath(path)).toBe(text);
  });
});

describe('formatIssues', () => {
  it('lists at most 10 issues, then how many more', () => {
    const allBad = Object.fromEntries(COUNT_KEYS.map((key) => [key, -1]));
    const message = issuesOf(countsSchema, allBad);
    const parts = message.split('; ');
    expect(parts).toHaveLength(11);
    expect(parts[0]).toBe(
      'visibility_mentioned_responses: must be an integer from 0 to 9007199254740991 or null (got -1)',
    );
    expect(parts[10]).toBe('and 3 more issues');
  });

  it('names each unknown key of a strict object on its own path', () => {
    const strict = z.strictObject({ inner: z.strictObject({ a: z.string() }) });
    expect(issuesOf(strict, { inner: { a: 'x', b: 1, 'c d': 2 } })).toBe(
      'inner.b: is not an allowed field; inner["c d"]: is not an allowed field',
    );
  });

  it("falls back to zod's own message, still with the path, for schemas without a rule message", () => {
    expect(issuesOf(z.object({ a: z.object({ b: z.string() }) }), { a: { b: 1 } })).toBe(
      'a.b: Invalid input: expected string, received number',
    );
  });

  it('shows a value only in short form: long strings cut, objects and arrays by kind', () => {
    const wide = z.looseObject({ n: z.number({ error: (issue) => `must be a number (got ${typeof issue.input})` }) });
    expect(issuesOf(wide, { n: { secret: 'x' } })).toBe('n: must be a number (got object)');
    expect(
      issuesOf(countsSchema, {
        ...Object.fromEntries(COUNT_KEYS.map((key) => [key, 0])),
        citation_pool: { deep: [1, 2] },
      }),
    ).toBe('citation_pool: must be an integer from 0 to 9007199254740991 or null (got an object)');
    expect(
      issuesOf(countsSchema, {
        ...Object.fromEntries(COUNT_KEYS.map((key) => [key, 0])),
        citation_pool: 'z'.repeat(5000),
      }),
    ).toBe(
      `citation_pool: must be an integer from 0 to 9007199254740991 or null (got "${'z'.repeat(40)}"... (5000 characters))`,
    );
  });
});
