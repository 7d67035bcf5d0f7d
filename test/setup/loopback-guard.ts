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

type LookupCallback = (error: Error | null, address: string | { address: string }[], family?: number) => void;
type Lookup = (hostname: string, options: object, callback: LookupCallback) => void;

/** The options object of a `Socket#connect` call, if it was given one. */
function connectOptions(args: unknown[]): { path?: string; host?: string; lookup?: Lookup } | undefined {
  const first = args[0];
  // Node normalises (port, host, cb) into an array [options, cb] on some internal paths.
  const options = Array.isArray(first) ? first[0] : first;
  return options && typeof options === 'object' ? options : undefined;
}

/** The host a `Socket#connect` call targets, or undefined for a Unix socket / pipe. */
function targetHost(args: unknown[]): string | undefined {
  const options = connectOptions(args);
  if (options) return options.path !== undefined ? undefined : (options.host ?? 'localhost');
  if (typeof args[0] === 'string' && Number.isNaN(Number(args[0]))) return undefined; // a path
  return typeof args[1] === 'string' ? args[1] : 'localhost';
}

const originalConnect = net.Socket.prototype.connect;
const guarded = Symbol.for('aivis.loopbackGuard');
const proto = net.Socket.prototype as net.Socket & { [guarded]?: boolean };
if (!proto[guarded]) {
  proto[guarded] = true;
  net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
    const host = targetHost(args);
    const options = connectOptions(args);
    if (host !== undefined && !isLoopbackHost(host)) {
      if (options?.lookup) {
        // A name with its own resolver (undici names the target host and resolves it to the
        // proxy's IP): the address it resolves to is what must be loopback.
        options.lookup = loopbackOnly(options.lookup);
      } else {
        const error = new Error(`loopback guard: connection to ${host} refused (tests may only reach 127.0.0.1)`);
        process.nextTick(() => this.destroy(error));
        return this;
      }
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
}

function loopbackOnly(lookup: Lookup): Lookup {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      const addresses = typeof address === 'string' ? [address] : (address ?? []).map((a) => a.address);
      const outside = addresses.find((a) => !isLoopbackHost(a));
      if (error || outside === undefined) callback(error, address, family);
      else
        callback(
          new Error(`loopback guard: connection to ${hostname} (${outside}) refused (tests may only reach 127.0.0.1)`),
          address,
          family,
        );
    });
}
