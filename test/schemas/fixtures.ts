/**
 * Valid V2 records, one per resource, as the spec describes them. Tests derive each invalid
 * case from these with `withField`, so every case differs from a valid record in one place.
 */
import { COMPETITOR_COUNT_KEYS, COUNT_KEYS, PROVIDER_COUNT_KEYS } from '../../schemas/keys.ts';

const countsOf = (keys: readonly string[]) => Object.fromEntries(keys.map((key, index) => [key, index]));

export const metrics = () => ({
  visibility: 42.5,
  share_of_voice: 0,
  sentiment: 100,
  citation_share: null,
  average_mention_position: 1,
});

export const website = () => ({
  id: 'web_AbC-1_x',
  domain_url: 'https://example.com',
  country: 'US',
  language: 'en',
  industry_niche: null,
  last_analysis_at: '2026-01-31T12:00:00Z',
});

export const versionMeta = () => ({
  projection_version: 'public_metrics_v1',
  metric_definition_bundle_version: 'public_metric_definitions_v3',
  metric_precision_version: 'metric_precision_v0',
  metric_definition_versions: {
    visibility: 'visibility_v1',
    share_of_voice: 'share_of_voice_v2',
    sentiment: 'sentiment_v1',
    citation_share: 'citation_share_v1',
    average_mention_position: 'average_mention_position_v1',
  },
  unavailable_reasons: { citation_share: 'no_competitive_citations' },
  data_quality: { is_partial: false },
});

export const providerEntry = () => ({
  provider: 'google_ai_overview',
  metrics: metrics(),
  counts: countsOf(PROVIDER_COUNT_KEYS),
  unavailable_reasons: { citation_share: 'citation_extraction_failed' },
});

export const competitorEntry = () => ({
  competitor_domain: 'rival.example',
  metrics: { visibility: 10, share_of_voice: 20, citation_share: null, average_mention_position: 2.5 },
  counts: countsOf(COMPETITOR_COUNT_KEYS),
  unavailable_reasons: { citation_share: 'competitor_citation_facts_unavailable' },
});

export const snapshot = () => ({
  website_id: 'web_1',
  analysis_id: 'ana_1',
  as_of: '2026-01-30T00:00:00Z',
  available_at: '2026-01-30T06:00:00.123456Z',
  metrics: metrics(),
  counts: { ...countsOf(COUNT_KEYS), brand_citations: 9007199254740991, citation_pool: null },
  providers: [providerEntry()],
  competitors: [competitorEntry()],
});

export const snapshotMeta = () => ({
  request_id: 'req.1_a-B',
  includes: ['providers', 'competitors'],
  ...versionMeta(),
});

export const historyPoint = () => ({
  website_id: 'web_1',
  analysis_id: 'ana_1',
  as_of: '2026-01-30T00:00:00Z',
  available_at: '2026-01-30T06:00:00Z',
  metrics: metrics(),
  counts: countsOf(COUNT_KEYS),
  meta: versionMeta(),
});

export const mention = () => ({
  id: 'men_1',
  analysis_id: 'ana_1',
  observed_at: '2026-01-30T00:00:00Z',
  available_at: '2026-01-30T06:00:00Z',
  provider: 'chatgpt',
  sentence_text: 'Acme is a good choice.',
  sentence_text_truncated: false,
  position_in_response: 1,
  sentiment: null,
  mention_spans: [{ start: 0, end: 4 }],
});

export const importRequest = () => ({
  items: [
    { prompt_text: '  best crm for startups  ', client_id: 'row-1', tags: ['Discovery', 'crm'], language: 'en' },
    { prompt_text: 'acme vs rival pricing', client_id: 'row-2', search_intent: 'commercial', category: null },
  ],
  defaults: { tags: ['Comparison'], language: 'en', search_intent: 'informational' },
  classification: { mode: 'auto' },
  validate_only: false,
});

const receiptBase = (status: string) => ({
  id: 'pim_1',
  object: 'prompt_import',
  website_id: 'web_1',
  status,
  validate_only: false,
  created_at: '2026-01-30T00:00:00Z',
  expires_at: '2026-03-01T00:00:00Z',
});

export const receipts = {
  pending: () => receiptBase('pending'),
  processing: () => ({ ...receiptBase('processing'), phase: 'classifying', started_at: '2026-01-30T00:00:01Z' }),
  succeeded: () => ({
    ...receiptBase('succeeded'),
    summary: { created: 1, skipped_duplicates: 1 },
    items: [
      { index: 0, client_id: 'row-1', status: 'created' },
      { index: 1, status: 'skipped', code: 'skipped_active_duplicate' },
    ],
    completed_at: '2026-01-30T00:00:09Z',
  }),
  validated: () => ({
    ...receiptBase('succeeded'),
    validate_only: true,
    summary: { would_create: 1, active_count: 10, projected_active_count: 11, prompt_limit: 50, skipped_duplicates: 0 },
    items: [{ index: 0, status: 'would_create' }],
    completed_at: '2026-01-30T00:00:09Z',
  }),
  failed: () => ({
    ...receiptBase('failed'),
    error: { code: 'commit_conflict', retryable: true, retry_strategy: 'new_idempotency_key' },
    items: [
      { index: 0, status: 'failed', code: 'classification_failed' },
      { index: 1, status: 'not_processed' },
    ],
    completed_at: '2026-01-30T00:00:09Z',
  }),
};

/**
 * A deep copy of `record` with the value at `path` replaced (or the key removed for
 * `undefined`). @example withField(snapshot(), 'counts.brand_citations', -1)
 */
export function withField<T>(record: T, path: string, value: unknown): T {
  const copy = structuredClone(record) as Record<string, unknown>;
  const keys = path.split('.');
  const last = keys.pop()!;
  let target: Record<string, unknown> = copy;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy as T;
}
