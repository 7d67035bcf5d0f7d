/**
 * The client's stop signal (SIGTERM in the CLI) ends whatever the client is doing at once,
 * with the stop's reason: the request in flight (a stalled body), a retry's backoff, a 429's
 * pause of the limiter. Waits run on the test clock and are never passed: only the stop can
 * end them, and no timer is left behind to hold the process open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AivisError } from '../../src/errors.ts';
import { clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { apiError, stall } from './support/scripted-server.ts';
import { until } from './support/test-clock.ts';

const reason = new AivisError('stopped by SIGTERM');
let fixture: ClientFixture;
afterEach(async () => {
  await fixture.close();
});

/** A client on a clock that moves only when told, stopped by `stop`. */
async function stoppable() {
  const stop = new AbortController();
  fixture = await clientFixture({ autoAdvance: false, client: { signal: stop.signal } });
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => error,
    );
  return { stop, outcome };
}

const listWebsites = () => fixture.client.request({ method: 'GET', path: '/public/v2/websites' });

describe('ApiClient stopped by its signal', () => {
  it('ends the request in flight: a body that stalls, its deadline far off', async () => {
    const { stop, outcome } = await stoppable();
    fixture.server.script(stall);
    const pending = outcome(listWebsites());
    await until(() => fixture.server.received.length === 1, 'the request');
    stop.abort(reason);
    expect(await pending).toBe(reason);
    expect(fixture.clock.pending).toBe(0);
  });

  it("ends a retry's backoff (a 503 asking for 120 s)", async () => {
    const { stop, outcome } = await stoppable();
    fixture.server.script(apiError(503, 'temporarily_unavailable', 'r1', { 'retry-after': '120' }));
    const pending = outcome(listWebsites());
    await until(() => fixture.client.stats.retries === 1 && fixture.clock.pending === 1, 'the backoff');
    stop.abort(reason);
    expect(await pending).toBe(reason);
    expect(fixture.clock.pending).toBe(0);
    expect(fixture.server.received).toHaveLength(1);
  });

  it("ends a wait for the rate budget (a 429's pause of the limiter)", async () => {
    const { stop, outcome } = await stoppable();
    fixture.server.script(apiError(429, 'rate_limited', 'r1', { 'retry-after': '300' }));
    const pending = outcome(listWebsites());
    await until(() => fixture.client.stats.throttled === 1 && fixture.clock.pending === 1, 'the paused limiter');
    stop.abort(reason);
    expect(await pending).toBe(reason);
    expect(fixture.clock.pending).toBe(0);
    expect(fixture.server.received).toHaveLength(1);
  });

  it('refuses requests after the stop without sending them', async () => {
    const { stop, outcome } = await stoppable();
    stop.abort(reason);
    expect(await outcome(listWebsites())).toBe(reason);
    expect(fixture.server.received).toHaveLength(0);
  });
});
