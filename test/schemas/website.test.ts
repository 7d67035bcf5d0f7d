import { describe, expect, it } from 'vitest';
import { websiteSchema } from '../../schemas/index.ts';
import { website, withField } from './fixtures.ts';
import { outcome } from './parse-result.ts';

describe('websiteSchema', () => {
  it('accepts a website and preserves unknown fields', () => {
    const record = { ...website(), owner: { team: 'growth' }, tags: ['a'] };
    expect(websiteSchema.parse(record)).toEqual(record);
  });

  it('accepts a tracked, not yet measured website (nulls)', () => {
    const record = { ...website(), language: null, industry_niche: null, last_analysis_at: null };
    expect(websiteSchema.parse(record)).toEqual(record);
  });

  it('counts characters, not UTF-16 units: 500 emoji are a valid niche', () => {
    expect(outcome(websiteSchema, withField(website(), 'industry_niche', '🦊'.repeat(500)))).toBe('ok');
  });

  it.each([
    [
      'id',
      'site_1',
      'id: must be a website id: web_ then letters, digits, _ or -, at most 128 characters (got "site_1")',
    ],
    ['domain_url', 'example.com', 'domain_url: must be a URI such as https://example.com (got "example.com")'],
    ['country', 'us', 'country: must be two uppercase letters such as US (got "us")'],
    ['country', 'USA', 'country: must be two uppercase letters such as US (got "USA")'],
    ['language', '', 'language: must be a string of 1 to 128 characters or null (got "")'],
    ['language', undefined, 'language: is missing (send null when there is no value)'],
    [
      'industry_niche',
      'x'.repeat(501),
      `industry_niche: must be a string of 1 to 500 characters or null (got "${'x'.repeat(40)}"... (501 characters))`,
    ],
    ['industry_niche', undefined, 'industry_niche: is missing (send null when there is no value)'],
    [
      'last_analysis_at',
      '2026-02-30T00:00:00Z',
      'last_analysis_at: must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date or null (got "2026-02-30T00:00:00Z")',
    ],
    ['last_analysis_at', undefined, 'last_analysis_at: is missing (send null when there is no value)'],
  ])('%s = %j is rejected', (field, value, message) => {
    expect(outcome(websiteSchema, withField(website(), field, value))).toBe(message);
  });

  it('rejects a non-object with a short description, never the value dumped', () => {
    expect(outcome(websiteSchema, [website()])).toBe('must be an object (got an array of 1 item)');
  });
});
