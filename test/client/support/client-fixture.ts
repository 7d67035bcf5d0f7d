/**
 * An ApiClient wired to a scripted loopback server and a test clock, with its log lines
 * captured (debug level, JSON) so tests can read exactly what a user would see.
 */
import { ApiClient, type ApiClientOptions } from '../../../src/client/api-client.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { startScriptedServer, type Responder, type ScriptedServer } from './scripted-server.ts';
import { TestClock } from './test-clock.ts';

export const API_KEY = 'aivis_test_key_7f3c9a1e5b';

export interface ClientFixture {
  clock: TestClock;
  server: ScriptedServer;
  client: ApiClient;
  /** Every log line the client wrote. */
  lines: string[];
  close(): Promise<void>;
}

export async function clientFixture(
  options: { autoAdvance?: boolean; fallback?: Responder; client?: Partial<ApiClientOptions> } = {},
): Promise<ClientFixture> {
  const clock = new TestClock({ autoAdvance: options.autoAdvance ?? true });
  const server = await startScriptedServer(clock, options.fallback);
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    json: true,
    write: (line) => lines.push(line),
    now: () => new Date(clock.now()),
  });
  const client = new ApiClient({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    clock,
    logger,
    random: () => 0.5,
    ...options.client,
  });
  return {
    clock,
    server,
    client,
    lines,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The time between consecutive arrivals at the server. */
export function gaps(server: ScriptedServer): number[] {
  return server.received.slice(1).map((r, i) => r.at - server.received[i]!.at);
}
