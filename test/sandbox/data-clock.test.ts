/**
 * The data clock: pinned (tests, the demo, the docs) or following this machine's clock (what
 * `aivis sandbox` serves unless given `--clock`), with the seeded data placed relative to it.
 * The machine's clock is injected, so nothing here waits.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.ts';
import { call } from './sandbox-http.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('a data clock that follows the machine', () => {
  it('reads the injected wall clock to the second, and the seeded data is as old as it says', async () => {
    let wall = Date.parse('2026-11-26T19:47:14.250Z');
    const sb = await startSandbox({ followWallClock: true, now: () => wall, requestsPerMinute: 0 });
    try {
      expect(sb.clock.now()).toBe('2026-11-26T19:47:14Z');
      const measured = sb.truth.websites().filter((w) => w.last_analysis_at !== null);
      // Four of five websites measured, the latest analysis of each between 27 h and 3 h old, never in the future.
      expect(measured).toHaveLength(4);
      for (const website of measured) {
        const age = wall - Date.parse(website.last_analysis_at!);
        expect(age).toBeGreaterThan(3 * HOUR);
        expect(age).toBeLessThan(27 * HOUR);
      }
      const id = measured[0]!.id;
      const history = () => [...sb.truth.history(id)].length;
      const before = history();

      wall += DAY + 90_000;
      expect(sb.clock.now()).toBe('2026-11-27T19:48:44Z');
      expect((await call(sb, '/_sandbox')).body.data.now).toBe('2026-11-27T19:48:44Z');
      // A day of the machine's time brings each website its next analysis.
      expect(history()).toBe(before + 1);
      expect(Date.parse(sb.truth.websites().find((w) => w.id === id)!.last_analysis_at!)).toBeGreaterThan(
        wall - 27 * HOUR,
      );
    } finally {
      await sb.close();
    }
  });

  it('cannot be advanced: data time ahead of the machine would give bounds aivis refuses', async () => {
    const sb = await startSandbox({ followWallClock: true, now: () => Date.parse('2026-11-26T00:00:00Z') });
    const message =
      "advance: this sandbox's data time follows this machine's clock (new analyses arrive as time passes); start it with a pinned clock (aivis sandbox --clock 2026-01-01T00:00:00Z) to move data time by hand";
    try {
      expect(() => sb.clock.advance({ days: 1 })).toThrow(message);
      const refused = await call(sb, '/_sandbox/advance', null, 'POST', { days: 1 });
      expect([refused.status, refused.body.error.message]).toEqual([400, message]);
      expect(sb.clock.now()).toBe('2026-11-26T00:00:00Z');
    } finally {
      await sb.close();
    }
  });

  it('is not given a start too', async () => {
    await expect(startSandbox({ followWallClock: true, start: '2026-01-01T00:00:00Z' })).rejects.toThrow(
      'startSandbox: start pins the data clock; it cannot be given with followWallClock',
    );
  });
});

describe('a pinned data clock', () => {
  it('ignores the machine clock and moves only when advanced', async () => {
    let wall = Date.parse('2026-11-26T19:47:14Z');
    const sb = await startSandbox({ start: '2026-03-01T12:00:00Z', now: () => wall });
    try {
      wall += 7 * DAY;
      expect(sb.clock.now()).toBe('2026-03-01T12:00:00Z');
      sb.clock.advance({ hours: 5 });
      expect(sb.clock.now()).toBe('2026-03-01T17:00:00Z');
    } finally {
      await sb.close();
    }
  });
});
