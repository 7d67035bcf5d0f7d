/**
 * Resolves each classified field of one item (spec 2.8): the item's own value (an explicit
 * null counts), then the request default, then in mode `auto` the classifier. Every field
 * gets a provenance (`provided`, `defaulted`, `derived` with confidence, `not_applicable`,
 * `low_confidence`); the values stay in the sandbox's prompt store, never in a receipt.
 */
import type {
  ClassificationMode,
  PromptImportDefaults as ImportDefaults,
  PromptImportItem as ImportItem,
} from '../../../schemas/prompt-import.ts';
import {
  CONFIDENCE_THRESHOLD,
  deriveCategory,
  deriveIntent,
  deriveJourneyTags,
  deriveLanguage,
  deriveSeedKeyword,
  deriveTopic,
  type Derived,
  type SearchIntent,
} from './prompt-classifier.ts';

export const CLASSIFIED_FIELDS = ['language', 'search_intent', 'tags', 'category', 'topic', 'seed_keyword'] as const;
export type ClassifiedField = (typeof CLASSIFIED_FIELDS)[number];
/** Fields `auto` must classify confidently or fail the whole operation (spec 2.8 rule 3). */
const REQUIRED: readonly ClassifiedField[] = ['language', 'search_intent', 'tags'];

export type FieldSource = 'provided' | 'defaulted' | 'derived' | 'not_applicable' | 'low_confidence';
/** Provenance of one field; only `derived` carries a confidence (spec 2.8 rule 5). */
export interface FieldProvenance {
  readonly source: FieldSource;
  readonly confidence?: number;
}

export interface ResolvedItem {
  readonly values: Partial<Record<ClassifiedField, unknown>>;
  readonly provenance: Partial<Record<ClassifiedField, FieldProvenance>>;
  /** Required fields the classifier could not derive confidently; non-empty = item failed. */
  readonly failedFields: readonly ClassifiedField[];
}

function derive(field: ClassifiedField, text: string, intent: SearchIntent | undefined): Derived<unknown> | undefined {
  switch (field) {
    case 'language':
      return deriveLanguage(text);
    case 'search_intent':
      return deriveIntent(text);
    case 'tags':
      return deriveJourneyTags(text, intent);
    case 'category':
      return deriveCategory(text);
    case 'topic':
      return deriveTopic(text);
    case 'seed_keyword':
      return deriveSeedKeyword(text);
  }
}

export function resolveItem(item: ImportItem, defaults: ImportDefaults, mode: ClassificationMode): ResolvedItem {
  const values: Partial<Record<ClassifiedField, unknown>> = {};
  const provenance: Partial<Record<ClassifiedField, FieldProvenance>> = {};
  const failedFields: ClassifiedField[] = [];
  for (const field of CLASSIFIED_FIELDS) {
    const own = item[field];
    const fallback = (defaults as Record<string, unknown>)[field];
    if (own !== undefined) {
      values[field] = own;
      provenance[field] = { source: 'provided' };
      continue;
    }
    if (fallback !== undefined) {
      values[field] = fallback;
      provenance[field] = { source: 'defaulted' };
      continue;
    }
    if (mode === 'provided_only') continue; // never inferred: the field stays absent
    const derived = derive(field, item.prompt_text, values.search_intent as SearchIntent | undefined);
    const confident = derived !== undefined && derived.confidence >= CONFIDENCE_THRESHOLD;
    if (REQUIRED.includes(field) && !confident) {
      failedFields.push(field);
    } else if (confident) {
      values[field] = derived.value;
      provenance[field] = { source: 'derived', confidence: Math.round(derived.confidence * 100) / 100 };
    } else {
      provenance[field] = { source: derived ? 'low_confidence' : 'not_applicable' };
    }
  }
  return { values, provenance, failedFields };
}
