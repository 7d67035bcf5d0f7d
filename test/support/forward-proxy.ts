/**
 * A small HTTP forward proxy on 127.0.0.1 that logs what it forwarded, for the proxy tests:
 * `CONNECT host:port` tunnels (https targets) and absolute-form requests (`GET http://...`,
 * plain http targets). Names under `.test` (RFC 2606: never on the internet) resolve to
 * 127.0.0.1 here, so a client that ignored the proxy could not reach them at all; loopback
 * addresses are forwarded as they are; anything else is refused with 502, and a request
 * that is not in proxy form with 400, as a real proxy answers them.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../schemas/insecure-http.ts';

/** One forwarded request or tunnel, as the proxy saw it. */
export interface ProxyLogEntry {
  /** `CONNECT api.aivis.test:443` or `GET http://api.aivis.test:8080/public/v2/websites`. */
  line: string;
  /** The `Proxy-Authorization` header, when the client sent one. */
  proxyAuthorization?: string;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly log: ProxyLogEntry[];
  close(): Promise<void>;
}

/** Where a `.test` name lives (this machine), or a loopback address as it is. */
function resolveTestHost(host: string): string | undefined {
  if (host === 'test' || host.endsWith('.test')) return '127.0.0.1';
  return isLoopbackHost(host) ? host.replace(/^\[|\]$/g, '') : undefined;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const log: ProxyLogEntry[] = [];
  const sockets = new Set<net.Socket>();
  const record = (line: string, headers: http.IncomingHttpHeaders) =>
    log.push({
      line,
      ...(headers['proxy-authorization'] ? { proxyAuthorization: headers['proxy-authorization'] } : {}),
    });

  const server = http.createServer((req, res) => {
    record(`${req.method} ${req.url}`, req.headers);
    const target = URL.canParse(req.url ?? '') ? new URL(req.url!) : undefined;
    const address = target && resolveTestHost(target.hostname);
    if (!target || !address) {
      res.writeHead(target ? 502 : 400).end(target ? 'proxy: unknown host' : 'proxy: not a proxy request');
      return;
    }
    const { 'proxy-authorization': _auth, 'proxy-connection': _keepAlive, ...headers } = req.headers;
    const upstream = http.request(
      { host: address, port: target.port || 80, method: req.method, path: target.pathname + target.search, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    record(`CONNECT ${req.url}`, req.headers);
    const [host, port] = (req.url ?? '').split(':');
    const address = host && resolveTestHost(host);
    if (!address) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(port), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
