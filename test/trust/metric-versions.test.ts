import { describe, expect, it } from 'vitest';
import {
  type AnalyticsObservation,
  MetricVersionLedger,
  type MetricVersionRow,
  versionKey,
} from '../../src/trust/metric-versions.ts';
import { metricVersionsTable } from '../../src/tables/index.ts';

const definitions = {
  visibility: 'visibility_v1',
  share_of_voice: 'share_of_voice_v1',
  sentiment: 'sentiment_v1',
  citation_share: 'citation_share_v1',
  average_mention_position: 'average_mention_position_v1',
};
const v1 = {
  projection_version: 'public_metrics_v2',
  metric_definition_bundle_version: 'public_metric_definitions_v12',
  metric_precision_version: 'metric_precision_v1',
  metric_definition_versions: definitions,
};
const v13 = { ...v1, metric_definition_bundle_version: 'public_metric_definitions_v13' };
const V1_KEY =
  '{"metric_definition_bundle_version":"public_metric_definitions_v12","metric_definition_versions":{"average_mention_position":"average_mention_position_v1","citation_share":"citation_share_v1","sentiment":"sentiment_v1","share_of_voice":"share_of_voice_v1","visibility":"visibility_v1"},"metric_precision_version":"metric_precision_v1","projection_version":"public_metrics_v2"}';

const seen = (tags: typeof v1, website_id: string, as_of: string | null, run_id = 'run_1'): AnalyticsObservation => ({
  ...tags,
  website_id,
  as_of,
  run_id,
});

describe('versionKey', () => {
  it('is the canonical JSON of the four tags, whatever order their keys came in', () => {
    expect(versionKey(v1)).toBe(V1_KEY);
    const reordered = Object.fromEntries(Object.entries(definitions).reverse());
    expect(versionKey({ ...v1, metric_definition_versions: reordered })).toBe(V1_KEY);
    expect(versionKey(v13)).not.toBe(V1_KEY);
  });
});

describe('MetricVersionLedger', () => {
  it('has one row per combination: first and last as_of, distinct websites, the run that first saw it', () => {
    const ledger = MetricVersionLedger.load([], 'default');
    ledger.observe(seen(v1, 'web_a', '2026-01-02T00:00:00Z'));
    ledger.observe(seen(v1, 'web_b', '2026-01-01T00:00:00.5Z'));
    // The same point read twice (inclusive updated_since) and a snapshot without as_of change nothing.
    ledger.observe(seen(v1, 'web_a', '2026-01-02T00:00:00Z'));
    ledger.observe(seen(v1, 'web_c', null));
    ledger.observe(seen(v1, 'web_a', '2026-01-03T00:00Z'));
    const rows = ledger.takeChangedRows();
    expect(rows).toEqual([
      {
        _workspace: 'default',
        version_key: V1_KEY,
        projection_version: 'public_metrics_v2',
        metric_definition_bundle_version: 'public_metric_definitions_v12',
        metric_precision_version: 'metric_precision_v1',
        metric_definition_versions:
          '{"average_mention_position":"average_mention_position_v1","citation_share":"citation_share_v1","sentiment":"sentiment_v1","share_of_voice":"share_of_voice_v1","visibility":"visibility_v1"}',
        first_as_of: '2026-01-01T00:00:00.5Z',
        last_as_of: '2026-01-03T00:00Z',
        websites: 2,
        website_ids: '["web_a","web_b"]',
        first_run_id: 'run_1',
      },
    ]);
    expect(Object.keys(rows[0]!)).toEqual(metricVersionsTable.columns.map((c) => c.name));
    // Taken once: a second take has nothing until the ledger changes again.
    expect(ledger.takeChangedRows()).toEqual([]);
  });

  it('announces a combination that starts after another, naming it whole and what it replaced, and not the baseline', () => {
    const ledger = MetricVersionLedger.load([], 'default');
    ledger.observe(seen(v1, 'web_a', '2026-02-27T00:00:00Z'));
    ledger.observe(seen(v13, 'web_a', '2026-03-01T00:00:00Z'));
    ledger.observe(seen(v13, 'web_b', '2026-03-01T06:00:00Z'));
    expect(ledger.notices()).toEqual([
      {
        version_key: versionKey(v13),
        first_as_of: '2026-03-01T00:00:00Z',
        text: 'new combination of metric versions from 2026-03-01T00:00:00Z: public_metric_definitions_v13, public_metrics_v2, metric_precision_v1, average_mention_position_v1, citation_share_v1, sentiment_v1, share_of_voice_v1, visibility_v1 (was public_metric_definitions_v12): do not mix series across it',
      },
    ]);
  });

  it('carries the table across runs: a known combination is widened, not announced again; a new one is', () => {
    const first = MetricVersionLedger.load([], 'default');
    first.observe(seen(v1, 'web_a', '2026-02-27T00:00:00Z', 'run_1'));
    first.observe(seen(v13, 'web_a', '2026-03-01T00:00:00Z', 'run_1'));
    expect(first.notices().map((n) => n.first_as_of)).toEqual(['2026-03-01T00:00:00Z']);

    const second = MetricVersionLedger.load(first.takeChangedRows(), 'default');
    expect(second.takeChangedRows()).toEqual([]);
    second.observe(seen(v13, 'web_a', '2026-03-01T00:00:00Z', 'run_2'));
    expect(second.takeChangedRows()).toEqual([]);
    second.observe(seen(v13, 'web_b', '2026-03-02T00:00:00Z', 'run_2'));
    const precise = {
      ...v13,
      metric_precision_version: 'metric_precision_v2',
      metric_definition_versions: { ...definitions, sentiment: 'sentiment_v2', visibility: 'visibility_v3' },
    };
    second.observe(seen(precise, 'web_b', '2026-03-05T00:00:00Z', 'run_2'));
    const rows = second.takeChangedRows();
    expect(
      rows.map((r) => [
        r.metric_definition_bundle_version,
        r.metric_precision_version,
        r.websites,
        r.first_run_id,
        r.last_as_of,
      ]),
    ).toEqual([
      ['public_metric_definitions_v13', 'metric_precision_v1', 2, 'run_1', '2026-03-02T00:00:00Z'],
      ['public_metric_definitions_v13', 'metric_precision_v2', 1, 'run_2', '2026-03-05T00:00:00Z'],
    ]);
    expect(second.notices()).toEqual([
      {
        version_key: versionKey(precise),
        first_as_of: '2026-03-05T00:00:00Z',
        text: 'new combination of metric versions from 2026-03-05T00:00:00Z: public_metric_definitions_v13, public_metrics_v2, metric_precision_v2, average_mention_position_v1, citation_share_v1, sentiment_v2, share_of_voice_v1, visibility_v3 (was metric_precision_v1, sentiment_v1, visibility_v1): do not mix series across it',
      },
    ]);
  });

  it('names a combination of tags each seen before as the new combination it is, not as a new definition', () => {
    // Bundle v13 with visibility_v2 first; then a website measured for the first time carries
    // visibility_v1 under v13: neither tag is new, their combination is.
    const ledger = MetricVersionLedger.load([], 'default');
    const v13Visibility2 = { ...v13, metric_definition_versions: { ...definitions, visibility: 'visibility_v2' } };
    ledger.observe(seen(v1, 'web_a', '2026-01-01T00:00:00Z'));
    ledger.observe(seen(v13Visibility2, 'web_a', '2026-01-02T00:00:00Z'));
    ledger.observe(seen(v13, 'web_b', '2026-01-03T00:00:00Z'));
    expect(ledger.notices().map((n) => n.text)).toEqual([
      'new combination of metric versions from 2026-01-02T00:00:00Z: public_metric_definitions_v13, public_metrics_v2, metric_precision_v1, average_mention_position_v1, citation_share_v1, sentiment_v1, share_of_voice_v1, visibility_v2 (was public_metric_definitions_v12, visibility_v1): do not mix series across it',
      'new combination of metric versions from 2026-01-03T00:00:00Z: public_metric_definitions_v13, public_metrics_v2, metric_precision_v1, average_mention_position_v1, citation_share_v1, sentiment_v1, share_of_voice_v1, visibility_v1 (was visibility_v2): do not mix series across it',
    ]);
  });

  it("loads its own workspace's rows only, a NULL workspace being default's", () => {
    const acme = MetricVersionLedger.load([], 'acme');
    acme.observe(seen(v1, 'web_a', '2026-02-27T00:00:00Z', 'run_acme'));
    acme.observe(seen(v13, 'web_a', '2026-03-01T00:00:00Z', 'run_acme'));
    const acmeRows = acme.takeChangedRows();
    const stored = [...acmeRows, { ...acmeRows[0]!, _workspace: null }];

    // The same combinations on another workspace's website: new to it, in rows of its own, announced to its run.
    const globex = MetricVersionLedger.load(stored, 'globex');
    globex.observe(seen(v1, 'web_g', '2026-02-28T00:00:00Z', 'run_globex'));
    globex.observe(seen(v13, 'web_g', '2026-03-02T00:00:00Z', 'run_globex'));
    const summary = (rows: MetricVersionRow[]) =>
      rows.map((r) => [r._workspace, r.metric_definition_bundle_version, r.websites, r.website_ids, r.first_run_id]);
    expect(summary(globex.takeChangedRows())).toEqual([
      ['globex', 'public_metric_definitions_v12', 1, '["web_g"]', 'run_globex'],
      ['globex', 'public_metric_definitions_v13', 1, '["web_g"]', 'run_globex'],
    ]);
    expect(globex.notices().map((n) => n.first_as_of)).toEqual(['2026-03-02T00:00:00Z']);

    // The NULL row is default's: widened by its run, not announced again.
    const fallback = MetricVersionLedger.load(stored, 'default');
    fallback.observe(seen(v1, 'web_d', '2026-02-27T00:00:00Z', 'run_default'));
    expect(summary(fallback.takeChangedRows())).toEqual([
      ['default', 'public_metric_definitions_v12', 2, '["web_a","web_d"]', 'run_acme'],
    ]);
    expect(fallback.notices()).toEqual([]);
  });

  it('names every tag the combination before it had instead', () => {
    const ledger = MetricVersionLedger.load([], 'default');
    ledger.observe(seen(v1, 'web_a', '2026-01-01T00:00:00Z'));
    ledger.observe(
      seen(
        {
          ...v13,
          projection_version: 'public_metrics_v3',
          metric_definition_versions: { ...definitions, visibility: 'visibility_v2' },
        },
        'web_a',
        '2026-01-02T00:00:00Z',
      ),
    );
    expect(ledger.notices().map((n) => n.text)).toEqual([
      'new combination of metric versions from 2026-01-02T00:00:00Z: public_metric_definitions_v13, public_metrics_v3, metric_precision_v1, average_mention_position_v1, citation_share_v1, sentiment_v1, share_of_voice_v1, visibility_v2 (was public_metric_definitions_v12, public_metrics_v2, visibility_v1): do not mix series across it',
    ]);
  });
});
