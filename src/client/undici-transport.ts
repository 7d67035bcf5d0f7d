/**
 * The innermost layer: one HTTP exchange over undici (keep-alive connections to the API
 * origin, or through the proxy the environment names: proxy-dispatcher.ts), body bytes read
 * whole up to a size cap (capped-body.ts). Every connection-level failure becomes a NetworkError; a
 * request we built wrong (undici's invalid-argument errors) is a bug and passes through.
 */
import { MAX_RESPONSE_BYTES, readCappedBody, ResponseTooLargeError } from './capped-body.ts';
import type { HttpRequest, HttpResponse } from './http-exchange.ts';
import { NetworkError } from './network-error.ts';
import { createDispatcher } from './proxy-dispatcher.ts';

/** The innermost `Send`, and the connections it keeps open until `close`. */
export interface UndiciTransport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/**
 * @param baseUrl origin plus an optional path prefix, e.g. `https://api.example.com`
 * @param maxResponseBytes a larger body fails its request (`capped-body.ts`)
 */
export function createUndiciTransport(baseUrl: URL, maxResponseBytes = MAX_RESPONSE_BYTES): UndiciTransport {
  // undici's own header and body timers stay off: the timeout layer owns the deadline, on the
  // client's clock, so it covers headers and body together and tests can move it.
  const agent = createDispatcher(baseUrl, { headersTimeout: 0, bodyTimeout: 0 });
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  return {
    async send(request) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) search.set(key, value);
      const query = search.size > 0 ? `?${search}` : '';
      try {
        const response = await agent.request({
          origin: baseUrl.origin,
          path: `${prefix}${request.path}${query}`,
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: request.signal,
        });
        const body = await readCappedBody(response, maxResponseBytes);
        return { status: response.statusCode, headers: response.headers, body };
      } catch (error) {
        if (isOwnFault(error) || error instanceof ResponseTooLargeError) throw error;
        if (codesOf(error).includes(NOT_TLS)) {
          // OpenSSL's own text (`...tlsany_meth.c:77:`) says nothing a user can act on.
          throw new NetworkError('not_tls', `the server at ${baseUrl.host} does not speak TLS`, { cause: error });
        }
        throw new NetworkError(isUntrustedCertificate(error) ? 'certificate' : 'connection', describe(error), {
          cause: error,
        });
      }
    },
    close: () => agent.close(),
  };
}

/** A request built wrong, or sent after `close()`: retrying cannot help. */
const OWN_FAULTS = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);
function isOwnFault(error: unknown): boolean {
  return OWN_FAULTS.has(String((error as { code?: unknown } | null)?.code));
}

/**
 * OpenSSL's verdicts on the server's certificate (Node's error codes), also when undici wraps
 * one (a tunnel through a proxy): a private CA missing from the trust store, an expired or
 * misnamed certificate.
 */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
function isUntrustedCertificate(error: unknown): boolean {
  return codesOf(error).some((code) => CERTIFICATE_CODES.has(code));
}

/** What OpenSSL says when the answer to its hello is not TLS: a plain-HTTP server on an `https://` URL. */
const NOT_TLS = 'ERR_SSL_WRONG_VERSION_NUMBER';

/** The error's code and its cause's (undici wraps a tunnel's). */
function codesOf(error: unknown): string[] {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  return [String(code), String(cause?.code)];
}

/** `ECONNRESET: other side closed`: the code tells an operator more than undici's class name. */
function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const label = typeof cause === 'string' ? cause : typeof code === 'string' ? code : undefined;
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return label !== undefined && !text.includes(label) ? `${label}: ${text}` : text;
}
