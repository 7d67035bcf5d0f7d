/**
 * Without an injected clock the client runs on the process clock, so tests elsewhere (the
 * sync engine's) can drive its waits with `vi.useFakeTimers()` the same way.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/api-client.ts';
import { systemClock } from '../../src/client/clock.ts';
import { API_KEY } from './support/client-fixture.ts';
import { apiError, json, startScriptedServer, type ScriptedServer } from './support/scripted-server.ts';
import { settle, until } from './support/test-clock.ts';

let server: ScriptedServer;
let client: ApiClient;
beforeEach(async () => {
  // Only the timers the client waits on; setImmediate stays real so loopback I/O can run.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.parse('2026-03-01T00:00:00Z') });
  server = await startScriptedServer(systemClock);
  client = new ApiClient({ baseUrl: server.baseUrl, apiKey: API_KEY });
});
afterEach(async () => {
  await client.close();
  await server.close();
  vi.useRealTimers();
});

it('a 429 waits its Retry-After on fake timers', async () => {
  server.script(
    apiError(429, 'rate_limited', 'r1', { 'retry-after': '30' }),
    json(200, { data: {}, meta: { request_id: 'r2' } }),
  );
  const pending = client.request({ method: 'GET', path: '/public/v2/websites' });
  await until(() => client.stats.throttled === 1, 'the 429');
  await vi.advanceTimersByTimeAsync(29_999);
  await settle();
  expect(server.received).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  await expect(pending).resolves.toMatchObject({ status: 200, requestId: 'r2' });
  expect(server.received.map((r) => r.at - server.received[0]!.at)).toEqual([0, 30_000]);
});
