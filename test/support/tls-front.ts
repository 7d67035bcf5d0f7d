/**
 * An https front for a loopback http server, as a corporate gateway or a TLS-inspecting
 * proxy would present one: a throwaway private CA (made with the openssl CLI, which Debian
 * ships) signs a certificate for `hostname`. A client trusts it only through
 * `NODE_EXTRA_CA_CERTS=<caFile>`, exactly as a user trusts their corporate CA.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export interface TlsFront {
  /** Port of the TLS listener on 127.0.0.1. */
  readonly port: number;
  /** PEM file of the CA that signed the front's certificate. */
  readonly caFile: string;
  close(): Promise<void>;
}

/** Key and certificate for `hostname`, signed by a new CA; valid for two days. */
function issueCertificate(dir: string, hostname: string): { key: string; cert: string; caFile: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=aivis test CA',
  );
  openssl('req', ...ecKey, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', `/CN=${hostname}`);
  const san = net.isIP(hostname) ? `IP:${hostname}` : `DNS:${hostname}`;
  writeFileSync(file('leaf.ext'), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('leaf.ext'),
    '-out',
    file('leaf.pem'),
  );
  return {
    key: readFileSync(file('leaf.key'), 'utf8'),
    cert: readFileSync(file('leaf.pem'), 'utf8'),
    caFile: file('ca.pem'),
  };
}

/** Terminates TLS for `hostname` on a free port and passes the bytes to `127.0.0.1:targetPort`. */
export async function startTlsFront(hostname: string, targetPort: number): Promise<TlsFront> {
  return front(hostname, targetPort, (socket, credentials, upstream) => {
    const client = new tls.TLSSocket(socket, { isServer: true, ...credentials });
    upstream(client);
  });
}

/** Postgres's SSLRequest: length 8, then the code 80877103 (1234 5679). */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/**
 * What a managed Postgres with TLS looks like to a client: a listener that answers the
 * protocol's SSLRequest with `S`, does the TLS handshake for `hostname`, then passes the
 * decrypted protocol to the plain Postgres at `127.0.0.1:targetPort`. A client that does not
 * ask for TLS is cut off (`sessions` counts the handshakes that completed).
 */
export async function startPostgresTlsFront(
  hostname: string,
  targetPort: number,
): Promise<TlsFront & { readonly sessions: () => number }> {
  let sessions = 0;
  const started = await front(hostname, targetPort, (socket, credentials, upstream) => {
    socket.once('data', (first: Buffer) => {
      if (!first.subarray(0, 8).equals(SSL_REQUEST)) {
        socket.destroy();
        return;
      }
      socket.write('S');
      const client = new tls.TLSSocket(socket, { isServer: true, ...credentials });
      client.once('secure', () => sessions++);
      upstream(client);
    });
  });
  return { ...started, sessions: () => sessions };
}

type Accept = (
  socket: net.Socket,
  credentials: { key: string; cert: string },
  upstream: (client: net.Socket) => void,
) => void;

async function front(hostname: string, targetPort: number, accept: Accept): Promise<TlsFront> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-tls-'));
  const { key, cert, caFile } = issueCertificate(dir, hostname);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = net.createServer((socket) => {
    track(socket);
    socket.on('error', () => socket.destroy());
    accept(socket, { key, cert }, (client) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    caFile,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
