import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call, walk } from './sandbox-http.ts';

let sb: Sandbox;
let measured: string;
beforeEach(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
  measured = sb.truth.websites()[0]!.id as string;
});
afterEach(() => sb.close());

/** `[as_of, bundle, precision, sentiment definition]` of every history point of the website. */
async function historyTags(websiteId: string) {
  const { rows } = await walk(sb, `/public/v2/websites/${websiteId}/analytics/history`);
  return rows.map((point) => [
    point.as_of,
    point.meta.metric_definition_bundle_version,
    point.meta.metric_precision_version,
    point.meta.metric_definition_versions.sentiment,
  ]);
}

describe('changing metric versions from a point in data time on', () => {
  it('gives analyses measured at or after `from` the new bundle, in history, the latest snapshot and truth', async () => {
    const before = await historyTags(measured);
    expect(
      sb.changeMetricVersions({
        from: '2026-01-02T00:00:00Z',
        metric_definition_bundle_version: 'public_metric_definitions_v13',
      }),
    ).toBe('2026-01-02T00:00:00Z');
    // Published points keep their tags: the change only reaches analyses not measured yet.
    expect(await historyTags(measured)).toEqual(before);

    sb.clock.advance({ days: 3 });
    const after = await historyTags(measured);
    expect(after.slice(0, before.length)).toEqual(before);
    // Analyses 0-2 carry bundle v1, 3 onwards v2 (the sandbox's own boundary), then v13 from 2026-01-02.
    const expected = after.map(([asOf], k) => [
      asOf,
      asOf >= '2026-01-02T00:00:00Z' ? 'public_metric_definitions_v13' : `public_metric_definitions_v${k >= 3 ? 2 : 1}`,
      'metric_precision_v1',
      'sentiment_v1',
    ]);
    expect(after).toEqual(expected);
    expect(after.filter(([, bundle]) => bundle === 'public_metric_definitions_v13').length).toBeGreaterThan(0);

    const latest = await call(sb, `/public/v2/websites/${measured}/analytics`);
    expect(latest.body.meta.metric_definition_bundle_version).toBe('public_metric_definitions_v13');
    expect(latest.body.meta.metric_definition_versions.visibility).toBe('visibility_v2');
    const { request_id: _, ...meta } = latest.body.meta;
    expect(sb.truth.snapshot(measured)!.meta).toEqual(meta);
    expect([...sb.truth.history(measured)].map((point: any) => point.meta.metric_definition_bundle_version)).toEqual(
      after.map(([, bundle]) => bundle),
    );
  });

  it('takes changes over the admin surface; later ones stack on earlier ones per tag', async () => {
    const first = await call(sb, '/_sandbox/metric-versions', null, 'POST', {
      metric_precision_version: 'metric_precision_v2',
      metric_definition_versions: { sentiment: 'sentiment_v4' },
    });
    expect([first.status, first.body.data]).toEqual([200, { from: '2026-01-01T00:00:00Z' }]);
    const second = await call(sb, '/_sandbox/metric-versions', null, 'POST', {
      from: '2026-01-03T00:00:00Z',
      metric_definition_versions: { sentiment: 'sentiment_v5' },
    });
    expect(second.body.data).toEqual({ from: '2026-01-03T00:00:00Z' });

    sb.clock.advance({ days: 4 });
    const points = (await historyTags(measured)).filter(([asOf]) => asOf >= '2026-01-01T00:00:00Z');
    expect(points.length).toBe(4);
    for (const [asOf, bundle, precision, sentiment] of points) {
      expect([bundle, precision, sentiment]).toEqual([
        'public_metric_definitions_v2',
        'metric_precision_v2',
        asOf >= '2026-01-03T00:00:00Z' ? 'sentiment_v5' : 'sentiment_v4',
      ]);
    }
  });

  it('refuses a change that reaches published analyses, names a bad tag, or changes nothing', async () => {
    sb.clock.advance({ hours: 1 });
    const refusals: [unknown, string][] = [
      [
        { from: '2026-01-01T00:00:00Z', projection_version: 'public_metrics_v3' },
        'changeMetricVersions: from 2026-01-01T00:00:00Z is before the data time now (2026-01-01T01:00:00Z): analyses up to now may be published, and published analytics never change',
      ],
      [
        { metric_definition_bundle_version: 'public_metric_definitions_v01' },
        'changeMetricVersions: metric_definition_bundle_version: must be a version tag like public_metric_definitions_v1 (at most 64 characters) (got "public_metric_definitions_v01")',
      ],
      [
        { metric_definition_versions: { reach: 'reach_v1' } },
        'changeMetricVersions: metric_definition_versions.reach: is not an allowed field',
      ],
      [
        { from: '2026-02-30T00:00:00Z', projection_version: 'public_metrics_v3' },
        'changeMetricVersions: from: must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date (got "2026-02-30T00:00:00Z")',
      ],
      [
        { from: '2026-01-05T00:00:00Z' },
        'changeMetricVersions: name at least one tag to change (projection_version, metric_definition_bundle_version, metric_precision_version, metric_definition_versions)',
      ],
    ];
    for (const [change, message] of refusals) {
      expect(() => sb.changeMetricVersions(change as never)).toThrow(message);
      const answer = await call(sb, '/_sandbox/metric-versions', null, 'POST', change);
      expect([answer.status, answer.body.error.message]).toEqual([400, message]);
    }
    // Nothing refused was recorded: the latest snapshot still carries the sandbox's own tags.
    sb.clock.advance({ days: 5 });
    const latest = await call(sb, `/public/v2/websites/${measured}/analytics`);
    expect(latest.body.meta.projection_version).toBe('public_metrics_v2');
    expect(latest.body.meta.metric_definition_bundle_version).toBe('public_metric_definitions_v2');
  });
});
