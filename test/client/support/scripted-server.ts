/**
 * A loopback HTTP server whose answers a test scripts one by one, for the fault cases (resets,
 * cut bodies, stalls, exact Retry-After values) that need exact control over one exchange.
 * Requests beyond the script get the fallback answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../src/client/clock.ts';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The test clock's time when the request arrived. */
  at: number;
}

export type Responder = (res: http.ServerResponse, req: ReceivedRequest) => void;

export interface ScriptedServer {
  baseUrl: string;
  received: ReceivedRequest[];
  /** Answers for the next requests, in order. */
  script(...responders: Responder[]): void;
  close(): Promise<void>;
}

export async function startScriptedServer(
  clock: Clock,
  fallback: Responder = json(200, { data: [], meta: { request_id: 'fallback' } }),
): Promise<ScriptedServer> {
  const received: ReceivedRequest[] = [];
  const queue: Responder[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: clock.now(),
      };
      received.push(request);
      (queue.shift() ?? fallback)(res, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    script: (...responders) => queue.push(...responders),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** A V2 error envelope. */
export function apiError(
  status: number,
  code: string,
  requestId: string,
  headers: Record<string, string> = {},
  message = `${code} happened`,
): Responder {
  return json(status, { error: { code, message }, meta: { request_id: requestId } }, headers);
}

/** The connection is dropped before any answer. */
export const reset: Responder = (res) => res.socket?.destroy();

/** Headers promise 1,000 bytes; half of them arrive, then the connection drops. */
export const truncated: Responder = (res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  res.write('{"data": [{"id": "web_1"');
  setImmediate(() => res.socket?.destroy());
};

/** Headers and the start of the body, then nothing: the client's deadline must end it. */
export const stall: Responder = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data": [');
};
