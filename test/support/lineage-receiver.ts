/** A local OpenLineage endpoint (as Marquez takes events): records every POST, or refuses, or never answers. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly event: Record<string, unknown>;
}

export type ReceiverMode = 'accept' | 'refuse' | 'hang';

export async function startLineageReceiver(mode: ReceiverMode = 'accept') {
  const received: ReceivedEvent[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (mode === 'hang') return; // left open; close() ends it with every other connection
      if (mode === 'refuse') return void response.writeHead(503).end('maintenance');
      received.push({ path: request.url ?? '', authorization: request.headers.authorization, event: JSON.parse(body) });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // active ones too: a request never answered
        server.close(() => resolve());
      }),
  };
}
