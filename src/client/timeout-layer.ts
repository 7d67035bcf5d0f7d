/**
 * A deadline per attempt covering connect, headers and the whole body (a server that sends
 * headers and then trickles is as stuck as one that sends nothing): `timeoutMs`, or what is
 * left of the request's retry budget when that is less. The limiter wait is not inside it: the
 * deadline starts when the request may go. The run's stop signal (`request.signal`) aborts the
 * attempt too, and then its reason is what is thrown.
 */
import type { Clock } from './clock.ts';
import type { Send } from './http-exchange.ts';
import { NetworkError } from './network-error.ts';

export function withTimeout(next: Send, timeoutMs: number, clock: Clock): Send {
  return async (request) => {
    const controller = new AbortController();
    const deadlineMs = Math.max(1, Math.min(timeoutMs, request.budget?.leftMs() ?? timeoutMs));
    const cancel = clock.deadline(deadlineMs, () => controller.abort());
    const stop = request.signal;
    try {
      return await next({ ...request, signal: stop ? AbortSignal.any([stop, controller.signal]) : controller.signal });
    } catch (error) {
      if (stop?.aborted) throw stop.reason;
      if (controller.signal.aborted)
        throw new NetworkError('timeout', `no complete response within ${deadlineMs} ms`, { cause: error });
      throw error;
    } finally {
      cancel();
    }
  };
}
