/**
 * `FeedReader` alone, on a client whose server is scripted (loopback, a test clock): which of
 * a website's streams it reads and in what order, how it contains a stream's failure, and how
 * it tells a revoked website from a failed feed. What the run frame and every front end rely on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import { BUNDLED_VALIDATION } from '../../src/contract/contract-validation.ts';
import type { DurableUnit } from '../../src/feed/durable-unit.ts';
import type { StreamFailure } from '../../src/feed/feed-observer.ts';
import { FeedReader } from '../../src/feed/feed-reader.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { INITIAL_STATE } from '../../src/state/stream-state.ts';
import { mentionsTable } from '../../src/tables/index.ts';
import { clientFixture, type ClientFixture } from '../client/support/client-fixture.ts';
import { apiError, json } from '../client/support/scripted-server.ts';
import { mention } from '../schemas/fixtures.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const WEBSITE = { id: 'web_1', measured: true };
const page = (requestId: string, data: unknown[] = []) =>
  json(200, { data, meta: { request_id: requestId, has_more: false, next_cursor: null } });

function reader(f: ClientFixture) {
  const failures: StreamFailure[] = [];
  const revoked: string[] = [];
  const feed = new FeedReader({
    client: f.client,
    logger: silentLogger,
    config: configSchemaOf().parse({
      source: { base_url: f.server.baseUrl, api_key: 'aivis_test_key_7f3c9a1e5b' },
      destination: { type: 'duckdb', path: ':memory:' },
    }),
    observer: {
      pageRead: () => {},
      fellBack: () => {},
      streamFailed: (failure) => void failures.push(failure),
      websiteRevoked: (id) => void revoked.push(id),
    },
    validation: BUNDLED_VALIDATION,
    runId: 'run_1',
    workspace: 'default',
    now: () => NOW,
    position: () => INITIAL_STATE,
  });
  const units: DurableUnit[] = [];
  const sink = { add: async (unit: DurableUnit) => void units.push(unit) };
  const paths = () => f.server.received.map((r) => new URL(r.url, 'http://x').pathname);
  return { feed, failures, revoked, units, sink, paths };
}

describe('FeedReader.readWebsite', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('reads only the streams it is told for the website, in registry order whatever order they are given in', async () => {
    f = await clientFixture();
    f.server.script(page('r1', [{ ...mention(), id: 'men_1', website_id: 'web_1' }]), page('r2'));
    const { feed, sink, units, paths } = reader(f);
    expect(await feed.readWebsite({ website: WEBSITE, streams: ['citations', 'mentions'] }, sink)).toBe('done');
    expect(paths()).toEqual(['/public/v2/websites/web_1/mentions', '/public/v2/websites/web_1/citations']);
    expect(
      units.flatMap((u) => u.tables.filter((t) => t.table === mentionsTable).flatMap((t) => t.rows.map((r) => r.id))),
    ).toEqual(['men_1']);
  });

  it('asks no snapshot of a website never measured', async () => {
    f = await clientFixture();
    const { feed, sink, paths } = reader(f);
    expect(await feed.readWebsite({ website: { id: 'web_1', measured: false }, streams: ['analytics'] }, sink)).toBe(
      'done',
    );
    expect(paths()).toEqual([]);
  });

  it('reports a feed that fails for the website and reads its next stream', async () => {
    f = await clientFixture();
    // The feed answers 404, the website itself answers: a failure, not a revocation.
    f.server.script(
      apiError(404, 'not_found', 'r1'),
      json(200, {
        data: { id: 'web_1', domain_url: 'https://a.example', last_analysis_at: null },
        meta: { request_id: 'r2' },
      }),
      page('r3'),
    );
    const { feed, sink, failures, revoked, paths } = reader(f);
    expect(await feed.readWebsite({ website: WEBSITE, streams: ['mentions', 'citations'] }, sink)).toBe('done');
    expect(paths()).toEqual([
      '/public/v2/websites/web_1/mentions',
      '/public/v2/websites/web_1',
      '/public/v2/websites/web_1/citations',
    ]);
    expect(failures.map((x) => [x.websiteId, x.stream])).toEqual([['web_1', 'mentions']]);
    expect(failures[0]!.error).toMatch(/^not found \(404 not_found, request_id r1\)/);
    expect(revoked).toEqual([]);
  });

  it('tells a website revoked when its feed and itself answer 404, and skips its later streams', async () => {
    f = await clientFixture();
    f.server.script(apiError(404, 'not_found', 'r1'), apiError(404, 'not_found', 'r2'));
    const { feed, sink, failures, revoked, paths } = reader(f);
    expect(await feed.readWebsite({ website: WEBSITE, streams: ['mentions', 'citations'] }, sink)).toBe('revoked');
    expect(paths()).toEqual(['/public/v2/websites/web_1/mentions', '/public/v2/websites/web_1']);
    expect(revoked).toEqual(['web_1']);
    expect(failures).toEqual([]);
  });
});
