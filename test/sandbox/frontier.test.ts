/**
 * `updated_since` and `scan_upper_bound` (spec 4.10, docs/architecture.md#state-rules): rows
 * are stamped when their write starts and visible when it commits, so only a client that
 * carries the committed frontier forward verbatim never loses a row.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call, walk } from './sandbox-http.ts';

let sb: Sandbox;
let site: string;
beforeEach(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
  site = sb.truth.websites()[0]!.id as string;
});
afterEach(() => sb.close());

const mentionsPage = async () => (await call(sb, `/public/v2/websites/${site}/mentions?limit=5`)).body;
const mentions = (since?: string) =>
  walk(sb, `/public/v2/websites/${site}/mentions?limit=50${since ? `&updated_since=${since}` : ''}`);

/** Steps data time until a mention write of `site` is in flight behind a committed later one. */
async function advanceIntoInFlightWrite() {
  for (let step = 0; step < 6 * 48; step++) {
    const scan = await mentions();
    const bound = scan.metas[0].scan_upper_bound as string;
    const newest = scan.rows
      .map((r) => r.available_at as string)
      .sort()
      .at(-1)!;
    if (bound < sb.clock.now() && newest > bound) return { scan, bound, newest, clock: sb.clock.now() };
    sb.clock.advance({ minutes: 10 });
  }
  throw new Error('no in-flight write within two days of data time');
}

describe('updated_since is inclusive', () => {
  it('returns rows stamped exactly at updated_since, and none before', async () => {
    const all = [...sb.truth.mentions(site)] as any[];
    const boundary = all[Math.floor(all.length / 2)].available_at as string;
    const { rows } = await mentions(boundary);
    expect(rows).toEqual(all.filter((r) => r.available_at >= boundary));
    expect(rows.some((r) => r.available_at === boundary)).toBe(true);
    const oneMsLater = new Date(Date.parse(boundary) + 1).toISOString();
    expect((await mentions(oneMsLater)).rows.some((r) => r.available_at === boundary)).toBe(false);
  });

  it('keeps scan_upper_bound and the scan boundary fixed on every page, even after data time moves', async () => {
    const page = await walk(sb, `/public/v2/websites/${site}/mentions?limit=500`);
    const startedAt = sb.clock.now();
    const head = await mentionsPage();
    sb.clock.advance({ days: 2 }); // new analyses commit while the scan is under way
    const rest = await walk(sb, `/public/v2/websites/${site}/mentions?limit=5`, sb.apiKey, head.meta.next_cursor);
    expect(new Set([head.meta.scan_upper_bound, ...rest.metas.map((m) => m.scan_upper_bound)]).size).toBe(1);
    // The scan ends at its own boundary: the new analyses belong to the next scan.
    expect([...head.data, ...rest.rows]).toEqual(page.rows);
    expect([...head.data, ...rest.rows].every((r) => r.available_at <= startedAt)).toBe(true);
  });
});

describe('scan_upper_bound is a committed publication frontier', () => {
  it('is the stamp of the earliest uncommitted write while a later one is already visible', async () => {
    const { scan, bound, newest, clock } = await advanceIntoInFlightWrite();
    expect(bound < newest && newest <= clock).toBe(true);
    expect(scan.rows.some((r) => r.available_at === bound)).toBe(false);
    // Nothing stamped before the bound is missing from the scan.
    const visible = [...sb.truth.mentions(site)] as any[];
    expect(scan.rows.filter((r) => r.available_at < bound)).toEqual(visible.filter((r) => r.available_at < bound));
  });

  it('a client that sends scan_upper_bound back verbatim loses nothing; one using its clock or the newest stamp seen loses the late-committing write', async () => {
    const { scan, bound, newest, clock } = await advanceIntoInFlightWrite();
    const frontiers = { verbatim: bound, ownClock: clock, newestSeen: newest };
    sb.clock.advance({ hours: 2 }); // the slow write commits, stamped at `bound`
    const truthIds = ([...sb.truth.mentions(site)] as any[]).map((r) => r.id as string).sort();
    const held: Record<string, string[]> = {};
    for (const [client, frontier] of Object.entries(frontiers)) {
      const next = await mentions(frontier);
      held[client] = [...new Set([...scan.rows, ...next.rows].map((r) => r.id as string))].sort();
    }
    expect(held.verbatim).toEqual(truthIds);
    const lateWrite = ([...sb.truth.mentions(site)] as any[]).filter((r) => r.available_at === bound);
    expect(lateWrite.length).toBeGreaterThan(0);
    expect(lateWrite.every((r) => r.provider === 'chatgpt')).toBe(true);
    for (const client of ['ownClock', 'newestSeen']) {
      const lost = truthIds.filter((id) => !held[client]!.includes(id));
      expect(lost, client).toEqual(lateWrite.map((r) => r.id).sort());
    }
  });

  it('delivers at least once: rows between the bound and the scan time come again in the next scan', async () => {
    const { scan, bound } = await advanceIntoInFlightWrite();
    const next = await mentions(bound);
    const again = scan.rows.filter((r) => r.available_at >= bound).map((r) => r.id);
    expect(again.length).toBeGreaterThan(0);
    expect(next.rows.map((r) => r.id)).toEqual(expect.arrayContaining(again));
  });
});
