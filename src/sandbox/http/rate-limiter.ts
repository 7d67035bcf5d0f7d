/**
 * The workspace limit of spec part 8: N requests in any 60 s window, across all keys of the
 * workspace. A sliding log, so no burst slips through at a window edge; throttled requests
 * do not consume budget.
 */

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request of the workspace, or says how many seconds until one is allowed. */
  admit(workspaceId: string): Admission;
}

const WINDOW_MS = 60_000;

export function createRateLimiter(perMinute: number, now: () => number): RateLimiter {
  const logs = new Map<string, number[]>();
  return {
    admit(workspaceId) {
      if (perMinute <= 0) return { ok: true };
      const t = now();
      const log = (logs.get(workspaceId) ?? []).filter((at) => at > t - WINDOW_MS);
      logs.set(workspaceId, log);
      if (log.length < perMinute) {
        log.push(t);
        return { ok: true };
      }
      const waitMs = log[0]! + WINDOW_MS - t;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}
