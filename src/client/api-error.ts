/**
 * An API call that failed for good (after the client's retries). The message says what
 * happened, carries the API's `request_id` for support, and says what to do; it is redacted
 * like every other text the process writes. The response body itself is not kept: a server
 * could echo a secret in it. Exit code 1.
 */
import { AivisError, ExitCode } from '../errors.ts';
import { redact } from '../log/redact.ts';

/** One `{ field, issue }` of an error envelope's `details` (spec part 7). */
export interface ApiErrorDetail {
  field: string;
  issue: string;
}

/** The facts an ApiError carries besides its message. */
export interface ApiErrorInit {
  /** HTTP status; 0 when no complete response arrived (connection failure, timeout, cut body). */
  status: number;
  /** The envelope's `error.code` (`not_found`, `invalid_cursor`, ...); `invalid_response` for a success that breaks the contract. */
  code?: string | undefined;
  requestId?: string | undefined;
  /** The envelope's `details`, redacted (the importer maps them back to input lines). */
  details?: readonly ApiErrorDetail[];
  /**
   * The failure holds every request of the workspace, not just this one (a 429 whose wait is
   * longer than the retry budget): a run ends on it rather than go on to the next website.
   */
  workspaceWide?: boolean | undefined;
}

export class ApiError extends AivisError {
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly details: readonly ApiErrorDetail[];
  readonly workspaceWide: boolean;

  constructor(message: string, init: ApiErrorInit, options?: ErrorOptions) {
    super(redact(message), ExitCode.Failure, options);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.workspaceWide = init.workspaceWide ?? false;
    this.details = (init.details ?? []).map((d) => ({ field: redact(d.field), issue: redact(d.issue) }));
  }
}
