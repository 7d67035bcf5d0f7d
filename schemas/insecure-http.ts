/**
 * Which URLs may be plain `http://`. Everything aivis sends carries a secret (the API key, a
 * warehouse token or password), so an `http://` URL to another machine would put it on the
 * wire in clear. Loopback never leaves the machine (the sandbox, the local stand-ins, a
 * tunnel's local end); any other host needs `allow_insecure_http: true` beside the URL.
 */
import net from 'node:net';
import type { z } from 'zod';

const LOOPBACK_NAMES = new Set(['localhost', '::1', '0:0:0:0:0:0:0:1']);

/**
 * True for `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped 127.x, with or without IPv6
 * brackets. Names are not resolved: only these spellings count.
 * @example isLoopbackHost(new URL('http://[::1]:8080').hostname) // true
 */
export function isLoopbackHost(host: string): boolean {
  const bare = (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).toLowerCase();
  if (LOOPBACK_NAMES.has(bare)) return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (bare.startsWith('::ffff:')) return bare.slice(7).startsWith('127.');
  return false;
}

/** A config block holding a URL and the `allow_insecure_http` flag beside it. */
export interface InsecureHttpRule {
  /** Key of the URL in the block, e.g. `base_url`. */
  readonly urlKey: string;
  /** Path of the block in the config, for the message, e.g. `source`. */
  readonly block: string;
  /** What the URL's requests carry, e.g. `the API key`. */
  readonly carries: string;
}

/** The issue of one block's URL, path relative to the block, or undefined when the URL may be used. */
export function insecureHttpIssue(
  rule: InsecureHttpRule,
  block: Record<string, unknown>,
): { path: string[]; input: string; message: string } | undefined {
  const text = block[rule.urlKey];
  if (typeof text !== 'string' || block.allow_insecure_http === true || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return {
    path: [rule.urlKey],
    input: text,
    message:
      `http:// would send ${rule.carries} in clear to ${url.host}; use https://, ` +
      `or set ${rule.block}.allow_insecure_http: true if every hop to that host is trusted`,
  };
}

/**
 * A zod check for one block: an `http://` URL to a host that is not loopback is an issue on
 * the URL's key unless the block says `allow_insecure_http: true`.
 * @example sourceSchema.superRefine(refuseInsecureHttp({ urlKey: 'base_url', block: 'source', carries: 'the API key' }))
 */
export function refuseInsecureHttp(rule: InsecureHttpRule) {
  return (block: Record<string, unknown>, context: z.RefinementCtx): void => {
    const issue = insecureHttpIssue(rule, block);
    if (issue) context.addIssue({ code: 'custom', ...issue });
  };
}
