/**
 * A workspace whose API keeps failing stops asking it: the fifth request in a row that fails
 * after its retries ends every request of the client at once with one message, so a run does
 * not walk every website through the same timeouts. Any answer starts the count again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import { NOT_ANSWERING_AFTER } from '../../src/client/failure-streak.ts';
import { clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { apiError, json, stall } from './support/scripted-server.ts';
import { until } from './support/test-clock.ts';

const get = (f: ClientFixture, id = 'web_1') => f.client.request({ method: 'GET', path: `/public/v2/websites/${id}` });
const failure = (f: ClientFixture, id?: string): Promise<ApiError> =>
  get(f, id).then(
    () => {
      throw new Error('the request succeeded');
    },
    (e: unknown) => e as ApiError,
  );
const ok = json(200, { data: { id: 'web_1' }, meta: { request_id: 'r-ok' } });
const busy = apiError(503, 'temporarily_unavailable', 'r-busy');
const LAST =
  'API server error (503 temporarily_unavailable, request_id r-busy): GET /public/v2/websites/web_1 still failing: temporarily_unavailable happened; try again later';

describe('ApiClient when the API is not answering', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it(`the ${NOT_ANSWERING_AFTER}th request in a row failing after its retries says the API is not answering, and later requests fail at once`, async () => {
    expect(NOT_ANSWERING_AFTER).toBe(5);
    f = await clientFixture({ fallback: busy, client: { maxRetries: 0 } });
    for (let i = 1; i < NOT_ANSWERING_AFTER; i++) expect((await failure(f)).message).toBe(LAST);
    const notAnswering = await failure(f);
    expect(notAnswering).toBeInstanceOf(ApiError);
    expect(notAnswering.message).toBe(
      `the API is not answering: 5 requests in a row failed after their retries, the last with: ${LAST}`,
    );
    expect(notAnswering).toMatchObject({ code: 'not_answering', workspaceWide: true, exitCode: 1 });
    expect(await failure(f)).toBe(notAnswering);
    expect(f.server.received).toHaveLength(NOT_ANSWERING_AFTER);
  });

  it('any answer starts the count again', async () => {
    f = await clientFixture({ fallback: busy, client: { maxRetries: 0 } });
    for (let i = 1; i < NOT_ANSWERING_AFTER; i++) await failure(f);
    f.server.script(apiError(404, 'not_found', 'r-404'));
    expect((await failure(f)).status).toBe(404);
    for (let i = 1; i < NOT_ANSWERING_AFTER; i++) expect((await failure(f)).message).toBe(LAST);
    f.server.script(ok);
    await expect(get(f)).resolves.toMatchObject({ status: 200 });
    for (let i = 1; i < NOT_ANSWERING_AFTER; i++) expect((await failure(f)).message).toBe(LAST);
    expect(f.server.received).toHaveLength(3 * (NOT_ANSWERING_AFTER - 1) + 2);
  });

  it('ends a request still in flight at once when the streak fills', async () => {
    f = await clientFixture({ fallback: busy, client: { maxRetries: 0, timeoutMs: 3_600_000 } });
    f.server.script(stall);
    const inFlight = failure(f, 'web_stalled');
    await until(() => f.server.received.length === 1, 'the stalled request');
    for (let i = 1; i < NOT_ANSWERING_AFTER; i++) await failure(f);
    const notAnswering = await failure(f);
    expect(notAnswering.code).toBe('not_answering');
    expect(await inFlight).toBe(notAnswering);
  });
});
