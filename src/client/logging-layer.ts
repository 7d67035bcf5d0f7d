/**
 * One debug line per attempt (method, path, status, request_id, duration). The query is left
 * out: a cursor can be 22,000 characters. The logger redacts the key like any other secret.
 */
import type { Logger } from '../log/logger.ts';
import type { Clock } from './clock.ts';
import type { Send } from './http-exchange.ts';

export function withLogging(next: Send, logger: Logger, clock: Clock): Send {
  return async (request) => {
    const startedAt = clock.now();
    const line = { method: request.method, path: request.path };
    try {
      const response = await next(request);
      logger.debug('api response', {
        ...line,
        status: response.status,
        request_id: response.requestId,
        ms: clock.now() - startedAt,
      });
      return response;
    } catch (error) {
      logger.debug('api request failed', { ...line, error: (error as Error).message, ms: clock.now() - startedAt });
      throw error;
    }
  };
}
