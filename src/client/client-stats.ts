/** Live counters of one ApiClient; the progress display and the run summary read them. */
export interface ClientStats {
  /** Attempts sent (retries included). */
  requests: number;
  /** Attempts repeated after a retryable failure. */
  retries: number;
  /** 429 answers. */
  throttled: number;
  /** Attempts without a usable answer: connection failures, timeouts, cut-short bodies. */
  networkErrors: number;
  /** Time requests spent waiting for the rate budget or a 429 pause, summed over requests. */
  rateLimitWaitMs: number;
  /** Copies of the API key found in response bodies and stored as `[REDACTED]`. */
  echoedKeys: number;
}

export function createClientStats(): ClientStats {
  return { requests: 0, retries: 0, throttled: 0, networkErrors: 0, rateLimitWaitMs: 0, echoedKeys: 0 };
}
