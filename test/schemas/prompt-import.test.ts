import { describe, expect, it } from 'vitest';
import { promptImportItemSchema, promptImportRequestSchema } from '../../schemas/index.ts';
import { importRequest, withField } from './fixtures.ts';
import { outcome } from './parse-result.ts';

const item = { prompt_text: 'best crm for startups' };
const providedOnly = () => withField(importRequest(), 'classification.mode', 'provided_only');

describe('promptImportItemSchema', () => {
  it('accepts every documented field at its limits, unchanged (no trimming in the schema)', () => {
    const full = {
      prompt_text: `  ${'é'.repeat(2000)}  `,
      client_id: 'a'.repeat(128),
      tags: Array.from({ length: 20 }, (_, index) => `t${index}`.padEnd(80, 'x')),
      language: 'de',
      search_intent: 'transactional',
      category: 'c'.repeat(100),
      topic: null,
      seed_keyword: '🔑'.repeat(255),
    };
    expect(promptImportItemSchema.parse(full)).toEqual(full);
  });

  it.each([
    [{ ...item, mode: 'auto' }, 'mode: is not an allowed field'],
    [{ ...item, source: 'x', partial: true }, 'source: is not an allowed field; partial: is not an allowed field'],
    [{}, 'prompt_text: is missing'],
    [{ prompt_text: '   abcd   ' }, 'prompt_text: must be 5 to 2000 characters after trimming (got 4)'],
    [{ prompt_text: 'x'.repeat(2001) }, 'prompt_text: must be 5 to 2000 characters after trimming (got 2001)'],
    [{ prompt_text: 42 }, 'prompt_text: must be a string of 5 to 2000 characters after trimming (got 42)'],
    [{ ...item, client_id: 'row 1' }, 'client_id: must be 1 to 128 letters, digits, ".", "_" or "-" (got "row 1")'],
    [{ ...item, client_id: '' }, 'client_id: must be 1 to 128 letters, digits, ".", "_" or "-" (got "")'],
    [
      { ...item, tags: Array.from({ length: 21 }, (_, index) => `t${index}`) },
      'tags: must be an array of at most 20 tags (got an array of 21 items)',
    ],
    [
      { ...item, tags: ['y'.repeat(81)] },
      `tags[0]: must be a tag of at most 80 characters (got "${'y'.repeat(40)}"... (81 characters))`,
    ],
    [
      { ...item, tags: ['Discovery', ' discovery '] },
      'tags[1]: repeats tags[0] after normalization (got " discovery ")',
    ],
    [{ ...item, language: 'EN' }, 'language: must be a lowercase two-letter ISO 639-1 code such as en (got "EN")'],
    [{ ...item, language: 'eng' }, 'language: must be a lowercase two-letter ISO 639-1 code such as en (got "eng")'],
    [
      { ...item, search_intent: 'navigational' },
      'search_intent: must be informational, commercial, transactional (got "navigational")',
    ],
    [
      { ...item, category: 'c'.repeat(101) },
      `category: must be a string of at most 100 characters or null (got "${'c'.repeat(40)}"... (101 characters))`,
    ],
    [
      { ...item, topic: 't'.repeat(121) },
      `topic: must be a string of at most 120 characters or null (got "${'t'.repeat(40)}"... (121 characters))`,
    ],
    [{ ...item, seed_keyword: 5 }, 'seed_keyword: must be a string of at most 255 characters or null (got 5)'],
  ])('rejects %j', (value, message) => {
    expect(outcome(promptImportItemSchema, value)).toBe(message);
  });

  it('never echoes a prompt text into its error', () => {
    const message = outcome(promptImportItemSchema, { prompt_text: 'secret roadmap prompt '.repeat(100) });
    expect(message).toBe('prompt_text: must be 5 to 2000 characters after trimming (got 2199)');
  });
});

describe('promptImportRequestSchema', () => {
  it('accepts a valid request unchanged', () => {
    expect(promptImportRequestSchema.parse(importRequest())).toEqual(importRequest());
  });

  it('accepts provided_only with languages from the defaults and an explicit empty tag list', () => {
    const request = withField(providedOnly(), 'items.0.tags', []);
    expect(outcome(promptImportRequestSchema, request)).toBe('ok');
  });

  it('accepts a journey tag in any case (the match is normalized)', () => {
    expect(outcome(promptImportRequestSchema, withField(importRequest(), 'items.0.tags', ['crm', 'EVALUATION']))).toBe(
      'ok',
    );
  });

  it.each([
    ['items', [], 'items: must be an array of 1 to 1000 items (got an array of 0 items)'],
    [
      'items',
      Array.from({ length: 1001 }, () => item),
      'items: must be an array of 1 to 1000 items (got an array of 1001 items)',
    ],
    ['items.1.client_id', 'row-1', 'items[1].client_id: repeats items[0].client_id "row-1"'],
    ['items.1.prompt', 'x', 'items[1].prompt: is not an allowed field'],
    ['defaults', undefined, 'defaults: is missing'],
    ['defaults', null, 'defaults: must be an object (send {} when unused) (got null)'],
    ['defaults.category', 'x', 'defaults.category: is not an allowed field'],
    ['classification', undefined, 'classification: is missing'],
    ['classification.mode', 'manual', 'classification.mode: must be auto or provided_only (got "manual")'],
    ['classification.partial', true, 'classification.partial: is not an allowed field'],
    ['validate_only', undefined, 'validate_only: is missing'],
    ['validate_only', 'true', 'validate_only: must be true or false (got "true")'],
    ['dry_run', true, 'dry_run: is not an allowed field'],
    [
      'items.0.tags',
      ['crm'],
      'items[0].tags: must hold at least one journey tag (Discovery, Comparison, Evaluation, Validation, Objections, Alternatives, Implementation) when classification is auto',
    ],
    [
      'items.0.tags',
      [],
      'items[0].tags: must hold at least one journey tag (Discovery, Comparison, Evaluation, Validation, Objections, Alternatives, Implementation) when classification is auto',
    ],
    [
      'defaults.tags',
      ['crm'],
      'defaults.tags: must hold at least one journey tag (Discovery, Comparison, Evaluation, Validation, Objections, Alternatives, Implementation) when classification is auto',
    ],
  ])('%s = %j is rejected', (path, value, message) => {
    expect(outcome(promptImportRequestSchema, withField(importRequest(), path, value))).toBe(message);
  });

  it('provided_only: every item needs a language, from itself or the defaults', () => {
    const request = withField(withField(providedOnly(), 'defaults.language', undefined), 'items.0.language', undefined);
    expect(outcome(promptImportRequestSchema, request)).toBe(
      'items[0].language: is missing (classification provided_only needs a language on the item or in defaults); ' +
        'items[1].language: is missing (classification provided_only needs a language on the item or in defaults)',
    );
    expect(outcome(promptImportRequestSchema, withField(request, 'items.1.language', 'fr'))).toBe(
      'items[0].language: is missing (classification provided_only needs a language on the item or in defaults)',
    );
  });

  it('provided_only does not need journey tags', () => {
    expect(outcome(promptImportRequestSchema, withField(providedOnly(), 'items.0.tags', ['crm']))).toBe('ok');
  });
});
