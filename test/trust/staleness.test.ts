import { describe, expect, it } from 'vitest';
import { type LastRunRow, evaluateStatus, formatAge, oldestCompleteThrough } from '../../src/trust/staleness.ts';

const succeeded: LastRunRow = {
  id: 'run_9',
  command: 'sync',
  status: 'succeeded',
  started_at: '2026-01-03T00:00:00.000Z',
  finished_at: '2026-01-03T00:02:00.000Z',
  counts: '{"streams":{"mentions":{"rows":12,"rejected":0,"pages":2}}}',
  error: null,
};
const now = new Date('2026-01-03T06:00:00.000Z');
const streams = [
  { stream: 'websites', completeThrough: ['2026-01-03T00:01:00Z'] },
  { stream: 'mentions', completeThrough: ['2026-01-03T00:00:00Z', '2026-01-02T23:00:00.5Z', '2026-01-03T00:30:00Z'] },
];

describe('oldestCompleteThrough', () => {
  it('is the earliest instant, whatever the digits', () => {
    expect(oldestCompleteThrough(['2026-01-02T23:00:00Z', '2026-01-02T23:00:00.000001Z', '2026-01-02T23:00Z'])).toBe(
      '2026-01-02T23:00:00Z',
    );
    expect(oldestCompleteThrough(['2026-01-02T23:00:00.5Z', '2026-01-02T23:00:00Z'])).toBe('2026-01-02T23:00:00Z');
  });

  it('is null when a scope never completed, or there is none', () => {
    expect(oldestCompleteThrough(['2026-01-02T23:00:00Z', null])).toBeNull();
    expect(oldestCompleteThrough([])).toBeNull();
  });
});

describe('formatAge', () => {
  it.each([
    [0, '0s'],
    [59, '59s'],
    [90, '1m 30s'],
    [3600, '1h'],
    [25_261, '7h 1m'],
    [180_000, '2d 2h'],
    [86_401, '1d'],
  ])('%i seconds is %s', (seconds, text) => {
    expect(formatAge(seconds)).toBe(text);
  });
});

describe('evaluateStatus', () => {
  it('is fresh (exit 0) when no stream is older than --max-staleness and the last run succeeded', () => {
    // The oldest scope is 25,199 seconds old: a limit of exactly that is still fresh.
    const verdict = evaluateStatus({
      lastRun: succeeded,
      streams,
      rejectedSinceLastSuccess: 0,
      now,
      maxStalenessSeconds: 25_199,
    });
    expect(verdict).toEqual({
      report: {
        last_run: {
          id: 'run_9',
          command: 'sync',
          status: 'succeeded',
          started_at: '2026-01-03T00:00:00.000Z',
          finished_at: '2026-01-03T00:02:00.000Z',
          counts: { streams: { mentions: { rows: 12, rejected: 0, pages: 2 } } },
          error: null,
        },
        rejected_since_last_success: 0,
        streams: [
          { ...unscoped('2026-01-03T00:01:00Z'), stream: 'websites', age_seconds: 21_540, stale: false },
          { ...unscoped('2026-01-02T23:00:00.5Z'), stream: 'mentions', age_seconds: 25_199, stale: false },
        ],
        stale: false,
      },
      headline: 'fresh: every stream complete within 6h 59m; last run succeeded',
      reasons: [],
      exitCode: 0,
    });
  });

  it('says fresh only when the ages were judged: without --max-staleness, streams 329 days old are not called fresh', () => {
    const old = [{ stream: 'mentions', completeThrough: ['2026-01-01T00:00:00Z'] }];
    const input = {
      lastRun: succeeded,
      streams: old,
      rejectedSinceLastSuccess: 0,
      now: new Date('2026-11-26T19:00:00Z'),
    };
    const unjudged = evaluateStatus({ ...input, maxStalenessSeconds: undefined });
    expect([unjudged.headline, unjudged.report.streams[0]!.age_seconds, unjudged.exitCode]).toEqual([
      'ok: last run succeeded; stream ages not judged (give --max-staleness, e.g. 6h)',
      329 * 86_400 + 19 * 3600,
      0,
    ]);
    const judged = evaluateStatus({ ...input, maxStalenessSeconds: 6 * 3600 });
    expect([judged.headline, judged.exitCode]).toEqual(['STALE', 4]);
  });

  it('is stale (exit 4) when a stream is older than --max-staleness, naming it and both durations', () => {
    const verdict = evaluateStatus({
      lastRun: succeeded,
      streams,
      rejectedSinceLastSuccess: 3,
      now,
      maxStalenessSeconds: 25_198,
    });
    expect(verdict.report.streams.map((s) => [s.stream, s.stale])).toEqual([
      ['websites', false],
      ['mentions', true],
    ]);
    expect(verdict.report.stale).toBe(true);
    expect(verdict.report.rejected_since_last_success).toBe(3);
    expect(verdict.reasons).toEqual([
      'mentions is complete through 2026-01-02T23:00:00.5Z, 6h 59m ago: older than --max-staleness 6h 59m',
    ]);
    expect(verdict.exitCode).toBe(4);
  });

  it('is stale when a scope of a stream never completed, and fresh without --max-staleness', () => {
    const unfinished = [{ stream: 'citations', completeThrough: ['2026-01-03T00:00:00Z', null] }];
    const input = { lastRun: succeeded, streams: unfinished, rejectedSinceLastSuccess: 0, now };
    const limited = evaluateStatus({ ...input, maxStalenessSeconds: 86_400 });
    expect(limited.report.streams).toEqual([
      { ...unscoped(null), stream: 'citations', age_seconds: null, stale: true },
    ]);
    expect([limited.reasons, limited.exitCode]).toEqual([['citations has a scope that never completed a scan'], 4]);
    const unlimited = evaluateStatus({ ...input, maxStalenessSeconds: undefined });
    expect([unlimited.report.stale, unlimited.report.streams[0]!.stale, unlimited.exitCode]).toEqual([false, false, 0]);
  });

  it.each([
    ['failed', 'the last run run_9 (sync) failed: 401 unauthorized (request_id req_1)'],
    ['abandoned', 'the last run run_9 (sync) abandoned: 401 unauthorized (request_id req_1)'],
  ])('is stale when the last run %s, however young the data', (status, reason) => {
    const verdict = evaluateStatus({
      lastRun: { ...succeeded, status, error: '401 unauthorized (request_id req_1)' },
      streams,
      rejectedSinceLastSuccess: 0,
      now,
      maxStalenessSeconds: undefined,
    });
    expect([verdict.report.stale, verdict.reasons, verdict.exitCode]).toEqual([true, [reason], 4]);
    expect(verdict.report.streams.every((s) => !s.stale)).toBe(true);
  });

  it.each(['partial', 'stopped', 'running'])('a last run that is %s is not a failure', (status) => {
    const verdict = evaluateStatus({
      lastRun: { ...succeeded, status },
      streams,
      rejectedSinceLastSuccess: 0,
      now,
      maxStalenessSeconds: undefined,
    });
    expect(verdict.exitCode).toBe(0);
  });

  it('is stale when no run was ever recorded', () => {
    const verdict = evaluateStatus({
      lastRun: null,
      streams: [],
      rejectedSinceLastSuccess: 0,
      now,
      maxStalenessSeconds: undefined,
    });
    expect(verdict).toEqual({
      report: { last_run: null, rejected_since_last_success: 0, streams: [], stale: true },
      headline: 'STALE',
      reasons: ['no run is recorded in _aivis_runs: nothing has been synced yet'],
      exitCode: 4,
    });
  });

  it('reads a frontier ahead of the local clock as age 0', () => {
    const ahead = [{ stream: 'mentions', completeThrough: ['2026-01-03T06:00:30Z'] }];
    const verdict = evaluateStatus({
      lastRun: succeeded,
      streams: ahead,
      rejectedSinceLastSuccess: 0,
      now,
      maxStalenessSeconds: 60,
    });
    expect(verdict.report.streams[0]).toEqual({
      ...unscoped('2026-01-03T06:00:30Z'),
      stream: 'mentions',
      age_seconds: 0,
      stale: false,
    });
  });

  it('a website in scope that never completed the stream makes it stale without --max-staleness, saying how many', () => {
    const streams = [
      { stream: 'mentions', completeThrough: ['2026-01-03T00:00:00Z', null], websites: 40, websitesComplete: 10 },
    ];
    const verdict = evaluateStatus({
      lastRun: succeeded,
      streams,
      rejectedSinceLastSuccess: 0,
      now,
      maxStalenessSeconds: undefined,
    });
    expect(verdict.report.streams[0]).toMatchObject({ websites: 40, websites_complete: 10, stale: true });
    expect([verdict.reasons, verdict.exitCode]).toEqual([['mentions: 30 of 40 websites in scope never completed'], 4]);
  });

  it('under skip_unchanged judges the age on checked_through, not the frontier', () => {
    const streams = [
      {
        stream: 'mentions',
        completeThrough: ['2026-01-01T00:00:00Z'],
        websites: 2,
        websitesComplete: 2,
        checkedThrough: '2026-01-03T05:00:00Z',
      },
    ];
    const input = { lastRun: succeeded, streams, rejectedSinceLastSuccess: 0, now, maxStalenessSeconds: 6 * 3600 };
    expect(evaluateStatus({ ...input, skipUnchanged: true }).exitCode).toBe(0);
    const plain = evaluateStatus(input);
    expect([plain.exitCode, plain.report.streams[0]!.checked_through]).toEqual([4, '2026-01-03T05:00:00Z']);
  });
});

/** A stream's status fields that come from coverage, for a stream given without any (checked through its frontier). */
function unscoped(completeThrough: string | null) {
  return {
    complete_through: completeThrough,
    checked_through: completeThrough,
    websites: null,
    websites_complete: null,
  };
}
