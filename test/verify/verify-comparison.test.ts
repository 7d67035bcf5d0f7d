import { describe, expect, it } from 'vitest';
import {
  combineWebsites,
  compareWebsite,
  MAX_LISTED_IDS,
  type WebsiteIds,
  verifyExitCode,
  withinWindow,
} from '../../src/verify/verify-comparison.ts';

/** Each website compared on its own, then combined, as verify does. */
const compareWindow = (byWebsite: Map<string, WebsiteIds>) =>
  combineWebsites([...byWebsite].map(([id, ids]) => compareWebsite(id, ids)));

describe('compareWebsite and combineWebsites', () => {
  it('lists per website what the destination lacks and what it has beyond the API, in id order', () => {
    const comparison = compareWindow(
      new Map([
        ['web_b', { api: ['men_3', 'men_1', 'men_2', 'men_1'], destination: ['men_1', 'men_9'] }],
        ['web_a', { api: ['men_5'], destination: ['men_5'] }],
        ['web_c', { api: [], destination: ['men_7'] }],
      ]),
    );
    expect(comparison).toEqual({
      websites: [
        { website_id: 'web_a', api_rows: 1, destination_rows: 1, missing: 0, extra: 0, missing_ids: [], extra_ids: [] },
        {
          website_id: 'web_b',
          api_rows: 3,
          destination_rows: 2,
          missing: 2,
          extra: 1,
          missing_ids: ['men_2', 'men_3'],
          extra_ids: ['men_9'],
        },
        {
          website_id: 'web_c',
          api_rows: 0,
          destination_rows: 1,
          missing: 0,
          extra: 1,
          missing_ids: [],
          extra_ids: ['men_7'],
        },
      ],
      missing: 2,
      extra: 2,
      equal: false,
    });
    expect(verifyExitCode(comparison)).toBe(3);
  });

  it('is equal (exit 0) when both sides hold the same ids, duplicates and order aside', () => {
    const comparison = compareWindow(
      new Map([['web_a', { api: ['men_2', 'men_1', 'men_2'], destination: ['men_1', 'men_2'] }]]),
    );
    expect([comparison.equal, comparison.missing, comparison.extra, verifyExitCode(comparison)]).toEqual([
      true,
      0,
      0,
      0,
    ]);
    expect(compareWindow(new Map()).equal).toBe(true);
  });

  it('counts every difference but lists at most 100 ids per website and kind', () => {
    const ids = Array.from({ length: 250 }, (_, i) => `men_${String(i).padStart(3, '0')}`);
    const [only] = compareWindow(new Map([['web_a', { api: ids, destination: [] }]])).websites;
    expect(MAX_LISTED_IDS).toBe(100);
    expect([only!.missing, only!.missing_ids.length, only!.missing_ids.at(0), only!.missing_ids.at(-1)]).toEqual([
      250,
      100,
      'men_000',
      'men_099',
    ]);
  });
});

describe('withinWindow', () => {
  const window = { since: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00Z' };
  it.each([
    ['2026-01-01T00:00:00Z', true],
    ['2026-01-01T00:00:00.000000Z', true],
    ['2025-12-31T23:59:59.999999999Z', false],
    ['2026-01-02T00:00:00.000000999Z', true],
    ['2026-01-02T00:00:00.000001Z', false],
    ['2026-01-01T12:00Z', true],
  ])('%s inside [since, until]: %s', (stamp, inside) => {
    expect(withinWindow(stamp, window)).toBe(inside);
  });

  it('exits 4 when a website in scope was never synced, 3 when there is also a difference or a failure', () => {
    expect(verifyExitCode({ equal: true, failed: [], never_synced: ['web_1'] })).toBe(4);
    expect(verifyExitCode({ equal: false, failed: [], never_synced: ['web_1'] })).toBe(3);
    expect(verifyExitCode({ equal: true, failed: ['web_2'], never_synced: ['web_1'] })).toBe(3);
    expect(verifyExitCode({ equal: true, failed: [], never_synced: [] })).toBe(0);
  });
});
