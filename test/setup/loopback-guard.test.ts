import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback-guard.ts';

describe('loopback guard', () => {
  it('tells loopback hosts from the rest', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['169.254.169.254', 'metadata.google.internal', '10.0.0.1', '8.8.8.8', '::ffff:10.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('refuses a connection that would leave the machine', async () => {
    const error = await new Promise<Error>((resolve) => {
      const socket = net.connect({ host: '169.254.169.254', port: 80 });
      socket.on('error', resolve);
      socket.on('connect', () => resolve(new Error('connected')));
    });
    expect(error.message).toBe(
      'loopback guard: connection to 169.254.169.254 refused (tests may only reach 127.0.0.1)',
    );
  });

  it('lets loopback connections through', async () => {
    const server = net.createServer((s) => s.end('hi'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as net.AddressInfo;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    server.close();
    expect(text).toBe('hi');
  });

  it('checks where a connection with its own lookup resolves to (undici names the host, resolves the proxy IP)', async () => {
    const server = net.createServer((s) => s.end('hi'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as net.AddressInfo;
    const attempt = (address: string) =>
      new Promise<string>((resolve) => {
        const lookup = (
          _host: string,
          options: { all?: boolean },
          cb: (e: Error | null, a: unknown, f?: number) => void,
        ) => (options.all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4));
        const socket = net.connect({ host: 'api.aivis.test', port, lookup: lookup as never });
        socket.on('data', (d) => resolve(String(d)));
        socket.on('error', (e) => resolve(e.message));
      });
    expect(await attempt('127.0.0.1')).toBe('hi');
    expect(await attempt('10.0.0.1')).toBe(
      'loopback guard: connection to api.aivis.test (10.0.0.1) refused (tests may only reach 127.0.0.1)',
    );
    server.close();
  });
});
