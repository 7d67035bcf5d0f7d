/** Request counters of a sandbox, counted when a `/public/v2` request arrives. */
export interface SandboxStats {
  /** Every `/public/v2` request, faulted and rejected ones included. */
  requests: number;
  /** Requests refused by the workspace rate limit (not by a `rate_limited` fault). */
  throttled: number;
  /** Requests per route name (`websites.list`, `mentions`, ...; `unmatched` for unknown paths). */
  byRoute: Record<string, number>;
}

export function createStats(): SandboxStats {
  return { requests: 0, throttled: 0, byRoute: {} };
}
