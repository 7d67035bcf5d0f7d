/** The error envelope of spec part 7: every error code with its HTTP status. */

export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  temporarily_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** One `details` item: which field, and what is wrong with it. */
export interface ErrorDetail {
  field: string;
  issue: string;
}

/** Thrown by route handlers and the request pipeline; the server renders the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    // The spec caps details at 50 items, a field at 128 characters and an issue at 256
    // (a field path can name a key of any length the caller sent).
    this.details = options.details
      ?.slice(0, 50)
      .map((detail) => ({ field: clip(detail.field, 128), issue: clip(detail.issue, 256) }));
    this.headers = options.headers ?? {};
  }
}

/** `text` cut to `max` code points (what the spec counts as characters), marked with `…` when cut. */
function clip(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** The 404 every unknown, removed or foreign id gets: identical bytes whatever the cause. */
export function notFound(what = 'website'): ApiError {
  return new ApiError('not_found', `The ${what} does not exist or is not accessible with this key.`);
}
