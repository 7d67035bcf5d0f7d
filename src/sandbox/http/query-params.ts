/**
 * Query parameters of spec part 4, each checked exactly as documented. Unknown parameters
 * are refused (400 `invalid_request`), so a misspelt `updated_since` can never silently turn
 * an incremental read into a full one. Every problem of a request is reported at once.
 */
import { MENTION_PROVIDERS } from '../../../schemas/keys.ts';
import { parseTimestamp } from '../timestamps.ts';
import { ApiError, type ErrorDetail } from './api-error.ts';

/** Returns the issue with a value, or null when it is valid. */
type Check = (value: string) => string | null;

const INCLUDE = /^\s*(?:providers|competitors)(?:\s*,\s*(?:providers|competitors))*\s*$/;
const ANALYSIS_ID = /^ana_[A-Za-z0-9_-]+$/;

export const PARAM_CHECKS = {
  limit: (v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 500 ? null : 'must be an integer from 1 to 500'),
  cursor: (v) => (v.length >= 1 && v.length <= 22_000 ? null : 'must be 1 to 22000 characters'),
  include: (v) => (INCLUDE.test(v) ? null : 'must be a comma-separated list of providers and/or competitors'),
  updated_since: (v) =>
    parseTimestamp(v) === null
      ? 'must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z with a valid calendar date and time'
      : null,
  provider: (v) =>
    (MENTION_PROVIDERS as readonly string[]).includes(v) ? null : `must be one of ${MENTION_PROVIDERS.join(', ')}`,
  analysis_id: (v) =>
    ANALYSIS_ID.test(v) && v.length <= 128
      ? null
      : 'must be an analysis id (ana_ followed by letters, digits, _ or -), at most 128 characters',
} satisfies Record<string, Check>;

export type ParamName = keyof typeof PARAM_CHECKS;

/** The valid parameters of a request, or 400 `invalid_request` naming every bad one. */
export function readQuery<N extends ParamName>(url: URL, allowed: readonly N[]): Partial<Record<N, string>> {
  const details: ErrorDetail[] = [];
  const values: Partial<Record<N, string>> = {};
  const seen = new Set<string>();
  for (const [name, value] of url.searchParams) {
    if (!(allowed as readonly string[]).includes(name)) {
      details.push({
        field: name.slice(0, 128) || '(empty name)',
        issue: `unknown parameter; this endpoint accepts ${allowed.join(', ') || 'no parameters'}`,
      });
    } else if (seen.has(name)) {
      details.push({ field: name, issue: 'must be given at most once' });
    } else {
      seen.add(name);
      const issue = PARAM_CHECKS[name as N](value);
      if (issue) details.push({ field: name, issue });
      else values[name as N] = value;
    }
  }
  if (details.length > 0) {
    throw new ApiError(
      'invalid_request',
      `Invalid query parameters: ${details.map((d) => d.field).join(', ')}.`.slice(0, 1024),
      { details },
    );
  }
  return values;
}

const WEBSITE_ID = /^web_[A-Za-z0-9_-]+$/;

/** A path `website_id` that cannot be an id is a 400, not a 404: the caller built a bad URL. */
export function checkWebsiteId(id: string): void {
  if (!WEBSITE_ID.test(id) || id.length > 128) {
    throw new ApiError('invalid_request', 'Invalid website_id in the path.', {
      details: [{ field: 'website_id', issue: 'must match ^web_[A-Za-z0-9_-]+$, at most 128 characters' }],
    });
  }
}
