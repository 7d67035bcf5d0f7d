import { describe, expect, it } from 'vitest';
import {
  competitorEntrySchema,
  countsSchema,
  historyPointSchema,
  metricsSchema,
  providerEntrySchema,
  snapshotDataSchema,
  snapshotMetaSchema,
} from '../../schemas/index.ts';
import { COUNT_KEYS, METRIC_KEYS, PROVIDER_COUNT_KEYS } from '../../schemas/keys.ts';
import {
  competitorEntry,
  historyPoint,
  metrics,
  providerEntry,
  snapshot,
  snapshotMeta,
  withField,
} from './fixtures.ts';
import { outcome } from './parse-result.ts';

const COUNT_RULE = 'must be an integer from 0 to 9007199254740991 or null';
const PERCENT_RULE = 'must be a number from 0 to 100 or null';
const MISSING_NULLABLE = 'is missing (send null when there is no value)';
const WEBSITE_REASONS_RULE =
  'must be one of no_finalized_analysis, no_eligible_responses, visibility_facts_unavailable, no_tracked_mentions, ' +
  'sov_facts_unavailable, no_scored_responses, sentiment_scoring_failed, sentiment_evidence_unavailable, ' +
  'no_competitive_citations, citation_extraction_failed, citation_evidence_unavailable, no_brand_mentions, ' +
  'mention_position_evidence_unavailable';

describe('valid analytics records pass and keep unknown fields', () => {
  it.each([
    ['snapshot', snapshotDataSchema, { ...snapshot(), is_partial_data: true, postprocess_status: 'pending' }],
    [
      'snapshot without breakdowns',
      snapshotDataSchema,
      withField(withField(snapshot(), 'providers', undefined), 'competitors', undefined),
    ],
    [
      'unmeasured snapshot',
      snapshotDataSchema,
      { ...snapshot(), analysis_id: null, as_of: null, available_at: null, providers: [], competitors: [] },
    ],
    [
      'snapshot meta',
      snapshotMetaSchema,
      { ...snapshotMeta(), includes: [], data_quality: { is_partial: true, postprocess_status: 'running' } },
    ],
    ['history point', historyPointSchema, { ...historyPoint(), revision: 2 }],
    ['provider entry', providerEntrySchema, { ...providerEntry(), rank: 1 }],
    ['competitor entry', competitorEntrySchema, { ...competitorEntry(), logo: 'x' }],
  ])('%s', (_name, schema, record) => {
    expect(schema.parse(record)).toEqual(record);
  });

  it('keeps counts at 2^53 - 1 exact', () => {
    expect(countsSchema.parse(snapshot().counts).brand_citations).toBe(9007199254740991);
  });
});

describe('metrics', () => {
  it.each(METRIC_KEYS)('%s is required even when unmeasured', (key) => {
    expect(outcome(metricsSchema, withField(metrics(), key, undefined))).toBe(`${key}: ${MISSING_NULLABLE}`);
  });

  it.each([
    ['visibility', -0.1, `visibility: ${PERCENT_RULE} (got -0.1)`],
    ['share_of_voice', 100.01, `share_of_voice: ${PERCENT_RULE} (got 100.01)`],
    ['sentiment', '50', `sentiment: ${PERCENT_RULE} (got "50")`],
    ['citation_share', false, `citation_share: ${PERCENT_RULE} (got false)`],
    ['average_mention_position', 0.99, 'average_mention_position: must be a number of at least 1 or null (got 0.99)'],
  ])('%s = %j is rejected', (key, value, message) => {
    expect(outcome(metricsSchema, withField(metrics(), key, value))).toBe(message);
  });
});

describe('counts', () => {
  it.each(COUNT_KEYS)('%s is required even when unmeasured', (key) => {
    expect(outcome(countsSchema, withField(snapshot().counts, key, undefined))).toBe(`${key}: ${MISSING_NULLABLE}`);
  });

  it.each([
    [-1, '-1'],
    [1.5, '1.5'],
    [9007199254740992, '9007199254740992'],
    ['7', '"7"'],
  ])('brand_citations = %j is rejected', (value, shown) => {
    expect(outcome(snapshotDataSchema, withField(snapshot(), 'counts.brand_citations', value))).toBe(
      `counts.brand_citations: ${COUNT_RULE} (got ${shown})`,
    );
  });

  it('provider counts have 11 keys: the two *_eligible_providers are not required there', () => {
    expect(PROVIDER_COUNT_KEYS).toHaveLength(11);
    const entry = providerEntry();
    expect(entry.counts).not.toHaveProperty('visibility_eligible_providers');
    expect(outcome(providerEntrySchema, withField(entry, 'counts.sov_pool_mentions', undefined))).toBe(
      `counts.sov_pool_mentions: ${MISSING_NULLABLE}`,
    );
  });
});

describe('snapshot', () => {
  it.each([
    [
      'website_id',
      null,
      'website_id: must be a website id: web_ then letters, digits, _ or -, at most 128 characters (got null)',
    ],
    ['analysis_id', undefined, 'analysis_id: is missing'],
    [
      'analysis_id',
      'men_1',
      'analysis_id: must be an analysis id: ana_ then letters, digits, _ or -, at most 128 characters (got "men_1")',
    ],
    ['as_of', undefined, `as_of: ${MISSING_NULLABLE}`],
    ['metrics', undefined, 'metrics: is missing'],
    ['counts', null, 'counts: must be an object (got null)'],
    ['providers', {}, 'providers: must be an array (got an object)'],
    [
      'providers.0.provider',
      'Chat GPT',
      'providers[0].provider: must be a provider name of 1 to 128 lowercase letters and digits, words joined by - or _ (got "Chat GPT")',
    ],
    [
      'providers.0.provider',
      'chat__gpt',
      'providers[0].provider: must be a provider name of 1 to 128 lowercase letters and digits, words joined by - or _ (got "chat__gpt")',
    ],
    ['providers.0.unavailable_reasons', undefined, 'providers[0].unavailable_reasons: is missing'],
    [
      'providers.0.unavailable_reasons.sentiment',
      'no_competitor_mentions',
      `providers[0].unavailable_reasons.sentiment: ${WEBSITE_REASONS_RULE} (got "no_competitor_mentions")`,
    ],
    [
      'providers.0.unavailable_reasons.reach',
      'no_eligible_responses',
      'providers[0].unavailable_reasons.reach: is not an allowed field',
    ],
    [
      'competitors.0.competitor_domain',
      '',
      'competitors[0].competitor_domain: must be a string of 1 to 253 characters (got "")',
    ],
    ['competitors.0.metrics.sentiment', 5, 'ok'],
    [
      'competitors.0.metrics.average_mention_position',
      0,
      'competitors[0].metrics.average_mention_position: must be a number of at least 1 or null (got 0)',
    ],
    ['competitors.0.counts.mentions', undefined, `competitors[0].counts.mentions: ${MISSING_NULLABLE}`],
    [
      'competitors.0.unavailable_reasons.sentiment',
      'no_eligible_responses',
      'competitors[0].unavailable_reasons.sentiment: is not an allowed field',
    ],
    [
      'competitors.0.unavailable_reasons.visibility',
      'no_tracked_mentions',
      'competitors[0].unavailable_reasons.visibility: must be one of no_eligible_responses, competitor_visibility_facts_unavailable, ' +
        'no_competitive_mentions, competitor_sov_facts_unavailable, no_competitive_citations, competitor_citation_facts_unavailable, ' +
        'no_competitor_mentions, competitor_position_evidence_unavailable (got "no_tracked_mentions")',
    ],
  ])('%s = %j', (path, value, message) => {
    expect(outcome(snapshotDataSchema, withField(snapshot(), path, value))).toBe(message);
  });
});

describe('snapshot meta and history point version tags', () => {
  it.each([
    [
      'includes',
      ['providers', 'competitors', 'providers'],
      'includes: must be an array of at most 2 items (got an array of 3 items)',
    ],
    ['includes', ['trends'], 'includes[0]: must be providers or competitors (got "trends")'],
    ['includes', undefined, 'includes: is missing'],
    [
      'projection_version',
      'public_metrics_vX',
      'projection_version: must be a version tag like public_metrics_v1 (at most 40 characters) (got "public_metrics_vX")',
    ],
    [
      'projection_version',
      `public_metrics_v${'1'.repeat(30)}`,
      `projection_version: must be a version tag like public_metrics_v1 (at most 40 characters) (got "public_metrics_v${'1'.repeat(24)}"... (46 characters))`,
    ],
    [
      'metric_definition_bundle_version',
      'public_metric_definitions_v01',
      'metric_definition_bundle_version: must be a version tag like public_metric_definitions_v1 (at most 64 characters) (got "public_metric_definitions_v01")',
    ],
    [
      'metric_precision_version',
      'metric_precision_v',
      'metric_precision_version: must be a version tag like metric_precision_v1 (at most 64 characters) (got "metric_precision_v")',
    ],
    [
      'metric_definition_versions.sentiment',
      'Sentiment_v1',
      'metric_definition_versions.sentiment: must be a version tag like visibility_v1 (at most 96 characters) (got "Sentiment_v1")',
    ],
    ['metric_definition_versions.visibility', undefined, 'metric_definition_versions.visibility: is missing'],
    ['unavailable_reasons', undefined, 'unavailable_reasons: is missing'],
    ['data_quality', {}, 'data_quality.is_partial: is missing'],
    ['data_quality.is_partial', 'no', 'data_quality.is_partial: must be true or false (got "no")'],
    ['request_id', undefined, 'request_id: is missing'],
  ])('meta.%s = %j', (path, value, message) => {
    expect(outcome(snapshotMetaSchema, withField(snapshotMeta(), path, value))).toBe(message);
  });

  it.each([
    [
      'analysis_id',
      null,
      'analysis_id: must be an analysis id: ana_ then letters, digits, _ or -, at most 128 characters (got null)',
    ],
    [
      'as_of',
      null,
      'as_of: must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date (got null)',
    ],
    ['available_at', undefined, 'available_at: is missing'],
    ['meta', undefined, 'meta: is missing'],
    ['meta.data_quality', undefined, 'meta.data_quality: is missing'],
    ['meta.metric_precision_version', undefined, 'meta.metric_precision_version: is missing'],
    ['counts.visibility_eligible_providers', undefined, `counts.visibility_eligible_providers: ${MISSING_NULLABLE}`],
  ])('history point %s = %j (a point is measured: no nulls in ids or times)', (path, value, message) => {
    expect(outcome(historyPointSchema, withField(historyPoint(), path, value))).toBe(message);
  });
});
