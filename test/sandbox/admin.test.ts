import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call } from './sandbox-http.ts';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
});
afterAll(() => sb.close());

describe('programmatic options', () => {
  it('refuses bad options with a message naming the option', async () => {
    await expect(startSandbox({ websites: -1 })).rejects.toThrow(
      'startSandbox: websites must be a whole number >= 0, got -1',
    );
    await expect(startSandbox({ mentionsPerAnalysis: 1.5 })).rejects.toThrow(
      'startSandbox: mentionsPerAnalysis must be a whole number >= 0, got 1.5',
    );
    await expect(startSandbox({ start: '2026-01-01' })).rejects.toThrow(
      'startSandbox: start must be a timestamp like 2026-01-01T00:00:00Z, got "2026-01-01"',
    );
    expect(() => sb.addWebsites(-2)).toThrow('addWebsites: count must be a whole number >= 0, got -2');
  });

  it('starts its data clock at start', async () => {
    const later = await startSandbox({ start: '2027-06-15T12:00:00Z' });
    try {
      expect(later.clock.now()).toBe('2027-06-15T12:00:00Z');
      const last = later.truth.websites()[0]!.last_analysis_at!;
      expect(last < '2027-06-15T12:00:00Z' && last >= '2027-06-14T12:00:00Z').toBe(true);
    } finally {
      await later.close();
    }
  });
});

describe('admin surface /_sandbox', () => {
  it('advances the data clock', async () => {
    const moved = await call(sb, '/_sandbox/advance', null, 'POST', { days: 1, hours: 2, minutes: 30 });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toEqual({ now: '2026-01-02T02:30:00Z' });
    expect(sb.clock.now()).toBe('2026-01-02T02:30:00Z');
    const bad = await call(sb, '/_sandbox/advance', null, 'POST', { hours: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('advance: days, hours and minutes must be non-negative numbers');
  });

  it('adds and removes websites', async () => {
    const added = await call(sb, '/_sandbox/websites', null, 'POST', { count: 2 });
    expect(added.status).toBe(201);
    const ids = added.body.data.ids as string[];
    expect(ids).toHaveLength(2);
    const listed = (await call(sb, '/public/v2/websites')).body.data.map((w: any) => w.id);
    expect(listed).toEqual(expect.arrayContaining(ids));
    expect((await call(sb, `/_sandbox/websites/${ids[0]}`, null, 'DELETE')).status).toBe(200);
    expect((await call(sb, `/public/v2/websites/${ids[0]}`)).status).toBe(404);
    const again = await call(sb, `/_sandbox/websites/${ids[0]}`, null, 'DELETE');
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(`removeWebsite: no listed website ${ids[0]}`);
    expect((await call(sb, '/_sandbox/websites', null, 'POST', { count: 'two' })).body.error.message).toBe(
      'count must be an integer from 1 to 1000.',
    );
  });

  it('sets and clears faults, and reports state', async () => {
    expect(
      (await call(sb, '/_sandbox/faults', null, 'PUT', { kind: 'unavailable', count: 1, retryAfter: 3 })).status,
    ).toBe(200);
    const failed = await call(sb, '/public/v2/websites');
    expect([failed.status, failed.headers['retry-after']]).toEqual([503, '3']);
    expect((await call(sb, '/_sandbox/faults', null, 'PUT', { kind: 'meltdown' })).body.error.message).toMatch(
      /^fault profile: kind must be one of/,
    );
    await call(sb, '/_sandbox/faults', null, 'PUT', { kind: 'unavailable' });
    expect((await call(sb, '/_sandbox/faults', null, 'DELETE')).status).toBe(200);
    expect((await call(sb, '/public/v2/websites')).status).toBe(200);
    const state = await call(sb, '/_sandbox');
    expect(state.body.data.now).toBe(sb.clock.now());
    expect(state.body.data.stats.requests).toBe(sb.stats.requests);
    expect((await call(sb, '/_sandbox/advance', null, 'POST', 'not json')).status).toBe(400);
  });
});
