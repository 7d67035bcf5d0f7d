/**
 * The sandbox's stand-in for the service classifier, reported as `prompt-classifier-v1`.
 * Deterministic keyword rules, so tests can pick texts that classify confidently and texts
 * that cannot ("zzz qqq xxx" has no language): the point is the contract around it
 * (precedence, provenance, confidence, failure), not the linguistics.
 */
import type { PromptImportItem } from '../../../schemas/prompt-import.ts';

export type SearchIntent = NonNullable<PromptImportItem['search_intent']>;

export const CLASSIFIER_VERSION = 'prompt-classifier-v1';
/** Below this a required field counts as "cannot be classified confidently" (spec 2.8 rule 3). */
export const CONFIDENCE_THRESHOLD = 0.7;

/** A derived value with its confidence; `value` stays inside the sandbox, never in a receipt. */
export interface Derived<T> {
  readonly value: T;
  readonly confidence: number;
}

const LANGUAGE_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'the',
    'a',
    'an',
    'is',
    'are',
    'what',
    'how',
    'best',
    'for',
    'to',
    'of',
    'in',
    'and',
    'with',
    'which',
    'do',
    'does',
    'can',
    'should',
    'why',
    'my',
    'i',
    'vs',
  ],
  es: [
    'el',
    'la',
    'los',
    'las',
    'es',
    'que',
    'qué',
    'cómo',
    'como',
    'para',
    'de',
    'mejor',
    'con',
    'por',
    'una',
    'un',
    'y',
  ],
  de: ['der', 'die', 'das', 'ist', 'wie', 'was', 'für', 'und', 'mit', 'beste', 'ein', 'eine'],
  fr: ['le', 'les', 'est', 'quel', 'quelle', 'comment', 'pour', 'meilleur', 'avec', 'et', 'une'],
};

/** Buying and comparing words outweigh question words: "what is the best X" is commercial. */
const INTENT_WORDS: Readonly<Record<Exclude<SearchIntent, 'informational'>, readonly string[]>> = {
  transactional: [
    'buy',
    'price',
    'pricing',
    'cost',
    'cheap',
    'discount',
    'order',
    'coupon',
    'deal',
    'subscribe',
    'purchase',
    'comprar',
    'kaufen',
    'acheter',
  ],
  commercial: [
    'best',
    'top',
    'vs',
    'versus',
    'compare',
    'comparison',
    'review',
    'reviews',
    'alternative',
    'alternatives',
    'recommend',
    'mejor',
    'beste',
    'meilleur',
  ],
};
const QUESTION_WORDS = [
  'what',
  'how',
  'why',
  'when',
  'who',
  'explain',
  'guide',
  'qué',
  'cómo',
  'wie',
  'was',
  'comment',
  'pourquoi',
];

const JOURNEY_WORDS: Readonly<Record<string, readonly string[]>> = {
  Comparison: ['vs', 'versus', 'compare', 'comparison', 'difference'],
  Alternatives: ['alternative', 'alternatives', 'instead'],
  Implementation: ['install', 'setup', 'set', 'configure', 'implement', 'integrate'],
  Validation: ['review', 'reviews', 'legit', 'worth', 'trust', 'safe'],
  Objections: ['problem', 'problems', 'risk', 'downside', 'expensive', 'complaints'],
  Evaluation: ['best', 'top', 'recommend', 'pricing', 'price'],
};
const JOURNEY_BY_INTENT: Readonly<Record<SearchIntent, string>> = {
  informational: 'Discovery',
  commercial: 'Evaluation',
  transactional: 'Validation',
};

const CATEGORY_WORDS: Readonly<Record<string, readonly string[]>> = {
  software: ['software', 'app', 'crm', 'saas', 'tool', 'tools', 'platform', 'api'],
  travel: ['hotel', 'hotels', 'flight', 'flights', 'travel', 'trip'],
  finance: ['bank', 'loan', 'credit', 'insurance', 'mortgage'],
  retail: ['shoes', 'shop', 'store', 'clothing', 'jacket'],
};

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const hits = (tokens: readonly string[], vocabulary: readonly string[]) =>
  tokens.filter((t) => vocabulary.includes(t)).length;

/** Picks the best-scoring label; confidence grows with its lead over the runner-up. */
function pick<T extends string>(
  tokens: readonly string[],
  table: Readonly<Record<T, readonly string[]>>,
): Derived<T> | undefined {
  const scored = (Object.keys(table) as T[])
    .map((label) => ({ label, score: hits(tokens, table[label]) }))
    .sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || best.score === 0) return undefined;
  const lead = best.score - (second?.score ?? 0);
  return { value: best.label, confidence: Math.min(0.99, 0.55 + 0.15 * lead) };
}

export function deriveLanguage(text: string): Derived<string> | undefined {
  return pick(words(text), LANGUAGE_WORDS);
}

export function deriveIntent(text: string): Derived<SearchIntent> | undefined {
  const tokens = words(text);
  const strong = pick(tokens, INTENT_WORDS);
  if (strong && strong.confidence >= CONFIDENCE_THRESHOLD) return strong;
  if (hits(tokens, QUESTION_WORDS) > 0 || text.includes('?')) return { value: 'informational', confidence: 0.8 };
  return strong;
}

/** Journey tags from keywords, else the tag an intent implies (a weaker signal). */
export function deriveJourneyTags(text: string, intent: SearchIntent | undefined): Derived<string[]> | undefined {
  const tokens = words(text);
  const matched = Object.keys(JOURNEY_WORDS).filter((tag) => hits(tokens, JOURNEY_WORDS[tag] ?? []) > 0);
  if (matched.length) return { value: matched, confidence: 0.85 };
  return intent ? { value: [JOURNEY_BY_INTENT[intent]], confidence: 0.72 } : undefined;
}

export function deriveCategory(text: string): Derived<string> | undefined {
  return pick(words(text), CATEGORY_WORDS);
}

const contentWords = (text: string) =>
  words(text).filter((w) => w.length >= 4 && !Object.values(LANGUAGE_WORDS).some((list) => list.includes(w)));

export function deriveTopic(text: string): Derived<string> | undefined {
  const content = contentWords(text);
  return content.length
    ? { value: content.slice(0, 3).join(' '), confidence: content.length >= 3 ? 0.8 : 0.5 }
    : undefined;
}

export function deriveSeedKeyword(text: string): Derived<string> | undefined {
  const longest = contentWords(text).sort((a, b) => b.length - a.length)[0];
  return longest ? { value: longest, confidence: 0.9 } : undefined;
}
