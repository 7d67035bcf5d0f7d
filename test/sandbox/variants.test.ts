/**
 * Sandbox variants: spec-legal answers other than the sandbox's default. Each variant changes
 * what the server writes and `truth` alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call, walk } from './sandbox-http.ts';

let sb: Sandbox | undefined;
afterEach(() => sb?.close());

/** Every string of a JSON value that looks like a timestamp of the sandbox. */
const stamps = (value: unknown): string[] =>
  JSON.stringify(value)
    .match(/"\d{4}-\d{2}-\d{2}T[^"]*Z"/g)
    ?.map((s) => JSON.parse(s)) ?? [];

describe('startSandbox({ variants })', () => {
  it('refuses an unknown variant, naming the known ones', async () => {
    await expect(startSandbox({ variants: ['bogus' as never] })).rejects.toThrow(
      /^unknown sandbox variant "bogus" \(variants: timestamps_without_seconds, nanosecond_timestamps/,
    );
  });

  it('timestamps_without_seconds writes every timestamp YYYY-MM-DDThh:mmZ, in responses and in the truth', async () => {
    sb = await startSandbox({ requestsPerMinute: 0, variants: ['timestamps_without_seconds'] });
    const site = sb.truth.websites()[0]!.id;
    const { rows, metas } = await walk(sb, `/public/v2/websites/${site}/mentions?limit=100`);
    const listing = (await call(sb, '/public/v2/websites')).body;
    const written = [...stamps(rows), ...stamps(metas), ...stamps(listing.data)];
    expect(written.length).toBeGreaterThan(rows.length * 2);
    for (const stamp of written) expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    expect(rows).toEqual([...sb.truth.mentions(site)]);
  });

  it('nanosecond_timestamps writes nine fraction digits, and a bound sent back verbatim is inclusive and skips nothing', async () => {
    sb = await startSandbox({ requestsPerMinute: 0, variants: ['nanosecond_timestamps'] });
    const site = sb.truth.websites()[0]!.id;
    const all = [...sb.truth.mentions(site)] as { id: string; available_at: string }[];
    for (const stamp of stamps(all))
      expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?!000000)\d{6}Z$/);
    // Sent back verbatim, a row's own stamp admits that row and every later one, nothing earlier.
    const boundary = all[Math.floor(all.length / 2)]!.available_at;
    const { rows, metas } = await walk(sb, `/public/v2/websites/${site}/mentions?limit=100&updated_since=${boundary}`);
    expect(rows).toEqual(all.filter((r) => r.available_at >= boundary));
    expect(metas[0].scan_upper_bound).toMatch(/\.\d{9}Z$/);
    // A tenth of a nanosecond past the stamp excludes the rows written at it.
    const later = boundary.replace(/Z$/, '1Z');
    const after = await walk(sb, `/public/v2/websites/${site}/mentions?limit=100&updated_since=${later}`);
    expect(after.rows).toEqual(all.filter((r) => r.available_at > boundary));
  });
});
