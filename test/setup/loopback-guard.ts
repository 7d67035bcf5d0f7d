/**
 * Fails every outbound connection that does not target loopback.
 *
 * Loaded by vitest (`setupFiles`) and by every process a test spawns
 * (`node --import ./test/setup/loopback-guard.ts`), so a stray SDK probe of a cloud metadata
 * server or a mistyped URL fails loudly instead of leaving the machine.
 */
import net from 'node:net';
// The product's own definition of loopback: what the guard lets through is what aivis lets
// speak plain http.
import { isLoopbackHost } from '../../schemas/insecure-http.ts';

export { isLoopbackHost };

/** The host a `Socket#connect` call targets, or undefined for a Unix socket / pipe. */
function targetHost(args: unknown[]): string | undefined {
  const first = args[0];
  // Node normalises (port, host, cb) into an array [options, cb] on some internal paths.
  const options = Array.isArray(first) ? first[0] : first;
  if (options && typeof options === 'object') {
    const o = options as { path?: string; host?: string };
    if (o.path !== undefined) return undefined;
    return o.host ?? 'localhost';
  }
  if (typeof options === 'string' && Number.isNaN(Number(options))) return undefined; // a path
  return typeof args[1] === 'string' ? args[1] : 'localhost';
}

const originalConnect = net.Socket.prototype.connect;
const guarded = Symbol.for('aivis.loopbackGuard');
const proto = net.Socket.prototype as net.Socket & { [guarded]?: boolean };
if (!proto[guarded]) {
  proto[guarded] = true;
  net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
    const host = targetHost(args);
    if (host !== undefined && !isLoopbackHost(host)) {
      const error = new Error(`loopback guard: connection to ${host} refused (tests may only reach 127.0.0.1)`);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
}
