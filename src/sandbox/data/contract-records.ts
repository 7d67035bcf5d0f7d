/**
 * Records of the served-contract variants (variants.ts, docs/sandbox.md): the fields, metric
 * and reason value the variant's served contract declares (served-contract.ts), carried by the
 * data, so a client that reads the contract can be checked against records that use it.
 * `undeclared_reason_value` carries the reason value without declaring it.
 */
import type { SandboxVariant } from '../variants.ts';
import { Rng } from '../prng.ts';
import type { EvidenceRow } from './evidence-records.ts';
import type { SnapshotRenderer } from './snapshot-parts.ts';

/** The mention field `contract_new_mention_field` declares. */
export const NEW_MENTION_FIELD = 'response_language';
/** The metric `contract_new_metric` declares (in metrics, reason keys and definition versions). */
export const NEW_METRIC = 'recommendation_rate';
/** The website-level reason value `contract_new_reason` declares and `undeclared_reason_value` does not. */
export const NEW_REASON = 'sentiment_sampling_paused';

type Row = Record<string, unknown>;
type RecordOf = (row: EvidenceRow) => Row;

/** Whether an analysis's sentiment sampling was paused (`contract_new_reason`, `undeclared_reason_value`): its even ones. */
const samplingPaused = (variants: ReadonlySet<SandboxVariant>, index: number) =>
  (variants.has('contract_new_reason') || variants.has('undeclared_reason_value')) && index % 2 === 0;

/**
 * Mentions as the mention variants shape them: the language of the sentence (`languageOf`;
 * now and then not detected), no sentiment where sampling was paused.
 */
export function contractMention(
  variants: ReadonlySet<SandboxVariant>,
  record: RecordOf,
  languageOf: (row: EvidenceRow) => string | null,
): RecordOf {
  const shaped = ['contract_new_mention_field', 'contract_type_change'] as const;
  if (!shaped.some((variant) => variants.has(variant)) && !samplingPaused(variants, 0)) return record;
  return (row) => {
    const mention = { ...record(row) };
    if (variants.has('contract_new_mention_field'))
      mention[NEW_MENTION_FIELD] = Rng.of(row.seed, 'language', row.id).chance(0.1) ? null : languageOf(row);
    if (samplingPaused(variants, row.analysis.index)) mention.sentiment = null;
    // integer -> number: a position between two sentences.
    if (variants.has('contract_type_change') && typeof mention.position_in_response === 'number')
      mention.position_in_response += 0.5;
    return mention;
  };
}

/** Citations with a `rank` (the citation-field variant's contract declares it, with url, domain and title). */
export function contractCitation(variants: ReadonlySet<SandboxVariant>, record: RecordOf): RecordOf {
  if (!variants.has('contract_citation_fields')) return record;
  return (row) => ({ ...record(row), rank: Rng.of(row.seed, 'rank', row.id).int(1, 10) });
}

const metrics = (part: unknown) => (part ?? {}) as Record<string, unknown>;

/**
 * Snapshots and history points with the new metric (odd analyses: null, with a reason under
 * its key) or the new reason value (even analyses: sentiment sampling paused, so no response
 * was scored, no provider has a sentiment, and the website's is null for that reason).
 */
export function contractSnapshot(variants: ReadonlySet<SandboxVariant>, render: SnapshotRenderer): SnapshotRenderer {
  const metric = variants.has('contract_new_metric');
  if (!metric && !samplingPaused(variants, 0)) return render;
  return (website, analysis) => {
    const parts = render(website, analysis);
    const data: Row = { ...parts.data, metrics: { ...metrics(parts.data.metrics) } };
    const meta = {
      ...parts.meta,
      unavailable_reasons: { ...metrics(parts.meta.unavailable_reasons) },
      metric_definition_versions: { ...metrics(parts.meta.metric_definition_versions) },
    };
    const odd = analysis.index % 2 === 1;
    let providers = parts.providers;
    if (metric) {
      const visibility = metrics(data.metrics).visibility;
      const value = odd || typeof visibility !== 'number' ? null : Math.round(visibility * 5) / 10;
      metrics(data.metrics)[NEW_METRIC] = value;
      // Odd analyses lack the facts it is built on; a reason that claims no count is zero, as none is.
      if (value === null)
        meta.unavailable_reasons[NEW_METRIC] =
          typeof visibility === 'number' ? 'visibility_facts_unavailable' : 'no_eligible_responses';
      meta.metric_definition_versions[NEW_METRIC] = `${NEW_METRIC}_v1`;
      providers = providers.map((entry) => ({
        ...entry,
        metrics: { ...metrics(entry.metrics), [NEW_METRIC]: value },
        unavailable_reasons:
          value === null
            ? { ...metrics(entry.unavailable_reasons), [NEW_METRIC]: meta.unavailable_reasons[NEW_METRIC] }
            : entry.unavailable_reasons,
      }));
    }
    if (samplingPaused(variants, analysis.index)) {
      metrics(data.metrics).sentiment = null;
      data.counts = { ...metrics(data.counts), sentiment_scored_responses: 0 };
      meta.unavailable_reasons.sentiment = NEW_REASON;
      providers = providers.map((entry) => ({
        ...entry,
        metrics: { ...metrics(entry.metrics), sentiment: null },
        counts: { ...metrics(entry.counts), sentiment_scored_responses: 0 },
        unavailable_reasons: { ...metrics(entry.unavailable_reasons), sentiment: 'no_scored_responses' },
      }));
    }
    return { ...parts, data, meta, providers };
  };
}
