/**
 * The digest aivis keeps of each sent prompt (docs/prompt-import.md#only-what-is-new): texts it
 * counts as the same are the same to the service (never a prompt held back that the service
 * would keep), and the compact set finds exactly the digests it holds.
 */
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../schemas/prompt-import.ts';
import { digestText, KnownDigests, textSha256 } from '../../src/import/prompt-digest.ts';

const SAME_TO_AIVIS = [
  ['Best CRM?', '  best   crm?  '],
  ['Café au lait', 'Cafe\u0301 au lait'],
  ['Tab\tand\nnewline', 'tab and newline'],
];
/** Texts the service may fold together (NFKC, case) that aivis keeps apart: sent, then skipped by the service. */
const APART_TO_AIVIS = [
  ['ﬁnance tips', 'finance tips'],
  ['Best CRM?', 'Best CRM!'],
  ['e-mail tools', 'email tools'],
];

describe('the text digest', () => {
  it('folds Unicode composition, case and whitespace, and keeps punctuation', () => {
    for (const [a, b] of SAME_TO_AIVIS) expect(textSha256(a!)).toBe(textSha256(b!));
    for (const [a, b] of APART_TO_AIVIS) expect(textSha256(a!)).not.toBe(textSha256(b!));
    expect(textSha256('Best CRM?')).toMatch(/^[0-9a-f]{64}$/);
  });

  it("never counts as the same two texts the sandbox's deduplication keeps apart", () => {
    for (const [a, b] of [...SAME_TO_AIVIS, ...APART_TO_AIVIS]) {
      if (digestText(a!) === digestText(b!)) expect(normalizeText(a!)).toBe(normalizeText(b!));
    }
  });
});

describe('KnownDigests', () => {
  it('finds every digest it holds and none other, whatever order they arrived in', () => {
    const texts = Array.from({ length: 5000 }, (_, i) => `prompt number ${i}`);
    const known = new KnownDigests();
    for (const text of texts.slice(0, 4000).reverse()) known.append(textSha256(text));
    known.append(textSha256('prompt number 7'));
    known.seal();
    expect(texts.filter((text) => known.has(textSha256(text)))).toHaveLength(4000);
    expect(known.has(textSha256('prompt number 4000'))).toBe(false);
    expect(new KnownDigests().seal().has(textSha256('x'))).toBe(false);
  });
});
