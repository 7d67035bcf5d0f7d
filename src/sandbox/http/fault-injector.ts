/**
 * Switchable faults for client tests and demos. A profile says what goes wrong, on which
 * routes, and for how many requests: the next `count` matching requests, a seeded `fraction`
 * of them, or (neither given) every one until cleared: a storm.
 */
import { Rng } from '../prng.ts';

export type FaultKind =
  /** 429 `rate_limited` with `Retry-After` (default 1 s). */
  | 'rate_limited'
  /** 500 `internal_error`, with `Retry-After` only when `retryAfter` is given. */
  | 'internal_error'
  /** 503 `temporarily_unavailable`, with `Retry-After` only when `retryAfter` is given. */
  | 'unavailable'
  /** 404 `not_found`, as for a resource the caller cannot see (revoked, removed, unknown). */
  | 'not_found'
  /** The connection is reset (TCP RST) before any response byte. */
  | 'reset'
  /** The request is read and never answered: the connection stays open until the client gives up. */
  | 'no_answer'
  /** 200 with a captive portal's sign-in page as `text/html`, as a proxy or hotel Wi-Fi answers. */
  | 'html_page'
  /** 204 No Content: no body at all. */
  | 'no_content'
  /** 200 `application/json` with `Content-Length: 0`. */
  | 'empty_body'
  /** The real response, its body sent in `chunks` pieces `chunkDelayMs` apart. */
  | 'slow_body'
  /** The real response's headers (with the full Content-Length), half its body, then the connection closes. */
  | 'truncated_body'
  /**
   * A list page that continues a scan (the request sends `cursor`) comes back empty with
   * `has_more: true` and the same cursor: legal, and a client that stops there loses rows.
   */
  | 'empty_page'
  /** A list page with more to come, sent with `next_cursor: null` (`has_more` stays true): a broken scan. */
  | 'cursorless_page'
  /** A continuation page of records with `has_more: true` whose `next_cursor` is the cursor just sent: a scan that never advances. */
  | 'same_cursor'
  /** A continuation page whose `next_cursor` points back at the scan's first page: a scan that loops. */
  | 'cursor_loop'
  /** A continuation page carrying the records of the scan's first page again, under fresh cursors. */
  | 'repeat_page'
  /** Every list page reports `scan_upper_bound: 2099-01-01T00:00:00Z`, a bound in the future. */
  | 'bound_future'
  /** A page with more to come whose `next_cursor` is 22,001 characters, one over the spec's limit. */
  | 'long_cursor'
  /** A page with more to come whose body says `"has_more":true,"has_more":false` (a duplicate key in `meta`). */
  | 'duplicate_meta_keys'
  /** The real response with one record made invalid: `field` (a dot path) of the first record set to `value`. */
  | 'malformed_record'
  /** A list page of `records` records (default one more than the `limit` asked), the page's own repeated: a breach. */
  | 'oversized_page'
  /** A list page whose every record has `field` (default `sentence_text`) grown to `recordChars` characters (default 120,000): legal. */
  | 'huge_records'
  /** `field` (default `sentence_text`) of the page's first record quotes the API key twice, in JSON `\u` escapes (all characters, then one). */
  | 'escaped_key';

/** One fault setting, e.g. `{ kind: 'unavailable', count: 2, routes: ['mentions'] }`. */
export interface FaultProfile {
  kind: FaultKind;
  /** Only the next `count` matching requests fail. */
  count?: number;
  /** Each matching request fails with this probability (0..1), drawn from the sandbox seed. */
  fraction?: number;
  /** Route names (e.g. `websites.list`, `mentions`); absent = every `/public/v2` route. */
  routes?: string[];
  /** Only requests for these websites (the path's website id); absent = any. */
  websites?: string[];
  /** malformed_record: the dot path to overwrite in the first record (e.g. `sentiment`, `counts.brand_citations`). */
  field?: string;
  /** malformed_record: the value written there (any JSON). */
  value?: unknown;
  /** oversized_page: records in the page (default the `limit` asked for, plus one); huge_records: the page's records repeated (or cut) to this many. */
  records?: number;
  /** huge_records: characters of the grown field. */
  recordChars?: number;
  /** `Retry-After` value sent verbatim: seconds, an HTTP-date, or garbage to test clients. */
  retryAfter?: number | string;
  /** rate_limited, internal_error, unavailable, not_found: the error envelope's `message` instead of the default (any text, controls included). */
  message?: string;
  /** slow_body: pieces of the body (default 4). */
  chunks?: number;
  /** slow_body: pause before each piece after the first (default 200 ms). */
  chunkDelayMs?: number;
}

/**
 * The active fault profiles. Profiles stack: each `set` adds one, a request meets the first
 * (in order of `set`) that fires for it, a profile with `count` leaves when used up, and
 * `clear` removes them all.
 */
export interface FaultInjector {
  set(profile: FaultProfile): void;
  clear(): void;
  /** The fault for this request of `route`, if any; consumes one of `count`. `continuation`: the request sends a cursor. */
  take(route: string, continuation: boolean, websiteId?: string): FaultProfile | undefined;
}

const KINDS: readonly FaultKind[] = [
  'rate_limited',
  'internal_error',
  'unavailable',
  'reset',
  'no_answer',
  'html_page',
  'no_content',
  'empty_body',
  'slow_body',
  'truncated_body',
  'empty_page',
  'cursorless_page',
  'malformed_record',
  'not_found',
  'same_cursor',
  'cursor_loop',
  'repeat_page',
  'bound_future',
  'long_cursor',
  'duplicate_meta_keys',
  'oversized_page',
  'huge_records',
  'escaped_key',
];

/** Faults that only make sense for a request continuing a scan (it sends a cursor). */
const CONTINUATION_ONLY: readonly FaultKind[] = ['empty_page', 'same_cursor', 'cursor_loop', 'repeat_page'];

/** Checks a profile from the admin endpoint or a caller; throws a message naming the bad field. */
export function checkFaultProfile(input: unknown): FaultProfile {
  const p = input as Partial<FaultProfile> | null;
  if (!p || typeof p !== 'object') throw new TypeError('fault profile must be a JSON object');
  if (!KINDS.includes(p.kind as FaultKind))
    throw new TypeError(`fault profile: kind must be one of ${KINDS.join(', ')}`);
  if (p.count !== undefined && !(Number.isInteger(p.count) && p.count > 0))
    throw new TypeError('fault profile: count must be a positive integer');
  if (p.fraction !== undefined && !(typeof p.fraction === 'number' && p.fraction >= 0 && p.fraction <= 1))
    throw new TypeError('fault profile: fraction must be a number from 0 to 1');
  if (p.routes !== undefined && !(Array.isArray(p.routes) && p.routes.every((r) => typeof r === 'string')))
    throw new TypeError('fault profile: routes must be an array of route names');
  if (p.websites !== undefined && !(Array.isArray(p.websites) && p.websites.every((w) => typeof w === 'string')))
    throw new TypeError('fault profile: websites must be an array of website ids');
  if (p.kind === 'malformed_record' && !(typeof p.field === 'string' && p.field.length > 0))
    throw new TypeError('fault profile: malformed_record needs field, a dot path such as sentiment');
  if (p.message !== undefined && typeof p.message !== 'string')
    throw new TypeError('fault profile: message must be a string');
  for (const key of ['records', 'recordChars'] as const) {
    if (p[key] !== undefined && !(Number.isInteger(p[key]) && p[key]! > 0))
      throw new TypeError(`fault profile: ${key} must be a positive integer`);
  }
  for (const key of ['chunks', 'chunkDelayMs'] as const) {
    if (p[key] !== undefined && !(Number.isInteger(p[key]) && p[key]! >= 0))
      throw new TypeError(`fault profile: ${key} must be a non-negative integer`);
  }
  return p as FaultProfile;
}

interface ActiveFault {
  profile: FaultProfile;
  remaining: number;
  draws: Rng;
}

export function createFaultInjector(seed: number): FaultInjector {
  let active: ActiveFault[] = [];
  let sets = 0;
  const fires = (fault: ActiveFault, route: string, continuation: boolean, websiteId: string | undefined) => {
    const { profile } = fault;
    if (profile.routes && !profile.routes.includes(route)) return false;
    if (profile.websites && !(websiteId !== undefined && profile.websites.includes(websiteId))) return false;
    if (CONTINUATION_ONLY.includes(profile.kind) && !continuation) return false;
    return profile.fraction === undefined || fault.draws.chance(profile.fraction);
  };
  return {
    set(profile) {
      const checked = { ...checkFaultProfile(profile) };
      // Seeded per `set` call, so the same calls fail the same requests on every run.
      active.push({
        profile: checked,
        remaining: checked.count ?? Infinity,
        draws: Rng.of(seed, 'faults', ++sets, checked.kind),
      });
    },
    clear() {
      active = [];
    },
    take(route, continuation, websiteId) {
      const fault = active.find((candidate) => fires(candidate, route, continuation, websiteId));
      if (!fault) return undefined;
      if (--fault.remaining <= 0) active = active.filter((other) => other !== fault);
      return fault.profile;
    },
  };
}
