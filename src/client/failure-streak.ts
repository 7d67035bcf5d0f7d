/**
 * A workspace whose API keeps failing stops asking it (docs/operations.md#time-bounds): once
 * `NOT_ANSWERING_AFTER` requests in a row have failed after their retries (no answer, a 5xx, a
 * 429), the client fails every request in flight and every later one at once with one error
 * saying the API is not answering, instead of walking every website and stream through the
 * same timeouts. Any answer that is not such a failure starts the count again.
 */
import { ApiError } from './api-error.ts';

/** Requests failed in a row, each after its retries, that make a workspace's API count as not answering. */
export const NOT_ANSWERING_AFTER = 5;

export class FailureStreak {
  #failures = 0;
  readonly #tripped = new AbortController();

  /** Aborts with the not-answering ApiError once the streak is full: the client's requests and waits listen to it. */
  get signal(): AbortSignal {
    return this.#tripped.signal;
  }

  /** A request got an answer that is not a failure of the API. */
  answered(): void {
    this.#failures = 0;
  }

  /**
   * Counts a request that failed for good.
   * @returns what the request throws: `error` itself, or, when the API fails like this
   *   `NOT_ANSWERING_AFTER` times in a row, the not-answering error every other request gets too
   */
  failed(error: ApiError): ApiError {
    if (!isUnanswered(error)) {
      this.answered();
      return error;
    }
    if (++this.#failures < NOT_ANSWERING_AFTER || this.#tripped.signal.aborted) return error;
    const notAnswering = new ApiError(
      `the API is not answering: ${NOT_ANSWERING_AFTER} requests in a row failed after their retries, the last with: ${error.message}`,
      { status: error.status, code: 'not_answering', requestId: error.requestId, workspaceWide: true },
      { cause: error },
    );
    this.#tripped.abort(notAnswering);
    return notAnswering;
  }
}

/** No complete answer, a server error or a rate-limit refusal: what retries are for. */
function isUnanswered(error: ApiError): boolean {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
