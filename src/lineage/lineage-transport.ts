/**
 * Delivers one OpenLineage event: `http` (POST JSON, `Authorization: Bearer` when a key is
 * set, through the environment's proxy), `file` (appended as one JSON line, mode 0600) or
 * `console` (one log line). A delivery that fails throws; `lineage-run.ts` turns that into a
 * warning, since lineage never costs the run.
 */
import { appendFile } from 'node:fs/promises';
import { createDispatcher } from '../client/proxy-dispatcher.ts';
import { jsonLine } from '../log/inert-text.ts';
import type { Logger } from '../log/logger.ts';
import type { LineageTarget } from './lineage-settings.ts';

export interface LineageTransport {
  /** `timeoutMs`: how long an http delivery may take in all. */
  send(event: Record<string, unknown>, timeoutMs?: number): Promise<void>;
  /** Waits for deliveries in flight, then lets go of the connections. */
  close(): Promise<void>;
  /** Cuts the connections at once (after a stop). */
  destroy(): Promise<void>;
}

const done = async () => {};

export function createLineageTransport(target: LineageTarget, logger: Logger): LineageTransport {
  switch (target.type) {
    case 'console':
      return {
        send: async (event) => logger.info('openlineage event', { event }),
        close: done,
        destroy: done,
      };
    case 'file':
      return {
        send: (event) => appendFile(target.path, `${jsonLine(event)}\n`, { encoding: 'utf8', mode: 0o600 }),
        close: done,
        destroy: done,
      };
    case 'http':
      return httpTransport(target);
  }
}

function httpTransport(target: Extract<LineageTarget, { type: 'http' }>): LineageTransport {
  // The deadline covers connecting, headers and body together (AbortSignal.timeout below).
  const agent = createDispatcher(target.url, { headersTimeout: 0, bodyTimeout: 0 });
  return {
    async send(event, timeoutMs = target.timeoutMs) {
      const response = await agent.request({
        origin: target.url.origin,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
        },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode > 299)
        throw new Error(`${target.url.href} answered HTTP ${response.statusCode}`);
    },
    close: () => agent.close(),
    destroy: () => agent.destroy(),
  };
}
