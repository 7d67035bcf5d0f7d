/**
 * Opaque cursors: base64url(JSON) + "." + HMAC-SHA256 tag under a per-server secret. The
 * payload binds the cursor to its route, website and filters and carries the scan's fixed
 * boundary, so an edited cursor, or one replayed against other filters, is refused with
 * 400 `invalid_cursor` instead of silently returning the wrong rows.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './api-error.ts';

/** What a cursor remembers about its scan. */
export interface CursorPayload {
  /** Route name, workspace and website (null for the listing) the cursor belongs to. */
  route: string;
  workspaceId: string;
  websiteId: string | null;
  /** The filters of the first page, exactly as sent (`updated_since`, `provider`, ...). */
  filters: Record<string, string>;
  /** Route-specific scan state: the fixed boundary and where the last page ended. */
  state: Record<string, unknown>;
}

export interface CursorCodec {
  encode(payload: CursorPayload): string;
  /** Decodes and authenticates a cursor; any flaw is 400 `invalid_cursor`. */
  decode(token: string): CursorPayload;
}

const malformed = () =>
  new ApiError('invalid_cursor', 'The cursor is malformed or was altered; restart the scan without a cursor.');

export function createCursorCodec(secret: string): CursorCodec {
  const tag = (body: string) => createHmac('sha256', secret).update(body).digest().subarray(0, 16);
  return {
    encode(payload) {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${tag(body).toString('base64url')}`;
    },
    decode(token) {
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined) throw malformed();
      const given = Buffer.from(signature, 'base64url');
      const expected = tag(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw malformed();
      try {
        return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
      } catch {
        throw malformed();
      }
    },
  };
}

/**
 * The cursor's payload if it belongs to this route, website and filters. A request that
 * sends only `cursor` inherits the cursor's filters; one that sends filters must send the
 * same ones.
 */
export function bindCursor(
  codec: CursorCodec,
  token: string,
  scope: { route: string; workspaceId: string; websiteId: string | null; filters: Record<string, string> },
): CursorPayload {
  const payload = codec.decode(token);
  if (
    payload.route !== scope.route ||
    payload.workspaceId !== scope.workspaceId ||
    payload.websiteId !== scope.websiteId
  ) {
    throw new ApiError(
      'invalid_cursor',
      'The cursor belongs to another endpoint or website; restart the scan without a cursor.',
    );
  }
  const sent = Object.keys(scope.filters);
  if (sent.length > 0 && !sameFilters(payload.filters, scope.filters)) {
    throw new ApiError(
      'invalid_cursor',
      'The cursor was issued for other filters; send the filters of the first page, or restart the scan.',
    );
  }
  return payload;
}

function sameFilters(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
