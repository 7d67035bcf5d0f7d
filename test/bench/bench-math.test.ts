/**
 * The arithmetic behind the bench's figures (`npm run bench` itself is not a test): the
 * spec's request minimum, the budget rate over whole minutes, the busiest window, and the
 * attribution of profile samples to kinds of work.
 */
import type { Profiler } from 'node:inspector';
import { describe, expect, it } from 'vitest';
import { busiestMinute, wholeMinuteRate } from './budget-use.ts';
import { minimumRequests } from './request-efficiency.ts';
import { timeShares } from './time-shares.ts';

describe('minimumRequests', () => {
  it('counts the contract read, listing pages, one analytics call per listed website and ceil(rows / 500) pages per feed, at least one each', () => {
    const records = new Map([
      ['/public/v2/websites', 3],
      ['/public/v2/websites/web_a/mentions', 1000],
      ['/public/v2/websites/web_a/citations', 0],
      ['/public/v2/websites/web_a/analytics/history', 500],
      ['/public/v2/websites/web_b/mentions', 501],
    ]);
    // 1 contract + 1 listing page + 3 analytics + 2 + 1 + 1 + 2 feed pages
    expect(minimumRequests(records)).toBe(11);
  });
});

describe('wholeMinuteRate', () => {
  it('counts arrivals in the whole minutes from the first arrival, leaving out the trailing partial minute', () => {
    expect(wholeMinuteRate([0, 1_000, 60_000, 61_000, 125_000])).toEqual({ perMinute: 2, minutes: 2 });
  });

  it('has no rate for a run shorter than a minute, or no arrivals', () => {
    expect(wholeMinuteRate([0, 59_999])).toBeUndefined();
    expect(wholeMinuteRate([])).toBeUndefined();
  });
});

describe('busiestMinute', () => {
  it('finds the most arrivals in any closed 60 s window', () => {
    expect(busiestMinute([0, 30_000, 60_000, 60_001, 120_002])).toBe(3);
    expect(busiestMinute([0, 60_001, 120_002])).toBe(1);
  });
});

describe('timeShares', () => {
  const frame = (functionName: string, url = '') => ({
    functionName,
    url,
    scriptId: '0',
    lineNumber: 0,
    columnNumber: 0,
  });
  const profile: Profiler.Profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5, 6, 7, 8] },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('(garbage collector)') },
      { id: 4, callFrame: frame('parseJsonBody', 'file:///app/src/client/json-body.ts'), children: [9] },
      { id: 5, callFrame: frame('safeParse', 'file:///app/node_modules/zod/v4/core/parse.js') },
      { id: 6, callFrame: frame('csvChunks', 'file:///app/connectors/postgres/postgres-destination.ts') },
      { id: 7, callFrame: frame('request', 'file:///app/node_modules/undici/lib/api/api-request.js') },
      { id: 8, callFrame: frame('syncWebsite', 'file:///app/src/sync/run-sync.ts') },
      { id: 9, callFrame: frame('parse') },
    ],
    startTime: 1_000,
    endTime: 1_080,
    // One sample every 10 µs from t = 1000; each stands for the time until the next one.
    samples: [2, 2, 9, 5, 6, 3, 7, 8, 2],
    timeDeltas: [0, 10, 10, 10, 10, 10, 10, 10, 10],
  };

  it('attributes work by the code on the stack, and idle time to loading while a commit is in flight, else to the API', () => {
    const shares = timeShares(profile, [[1_005, 1_015]]);
    expect(shares).toEqual({
      api_wait: 1 / 8,
      http: 1 / 8,
      parse: 1 / 8,
      validate: 1 / 8,
      load: 2 / 8,
      gc: 1 / 8,
      other: 1 / 8,
    });
  });
});
