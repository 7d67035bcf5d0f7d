/** BigQuery's error shapes: the HTTP body `{error:{code,message,errors:[{reason,message}],status}}` and a job's `errorResult`. */

export interface ErrorProto {
  reason: string;
  message: string;
  location?: string;
  domain?: string;
}

const STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** An error the stand-in answers with: an HTTP status for REST calls, an `errorResult` inside a job. */
export class BigqueryFault extends Error {
  readonly httpStatus: number;
  readonly reason: string;
  constructor(httpStatus: number, reason: string, message: string) {
    super(message);
    this.httpStatus = httpStatus;
    this.reason = reason;
  }

  get proto(): ErrorProto {
    return { reason: this.reason, message: this.message, domain: 'global' };
  }

  get body(): unknown {
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        errors: [this.proto],
        status: STATUS[this.httpStatus] ?? 'UNKNOWN',
      },
    };
  }
}

export const notFound = (what: string) => new BigqueryFault(404, 'notFound', `Not found: ${what}`);
export const duplicate = (what: string) => new BigqueryFault(409, 'duplicate', `Already Exists: ${what}`);
export const invalidQuery = (message: string) => new BigqueryFault(400, 'invalidQuery', message);
export const invalid = (message: string) => new BigqueryFault(400, 'invalid', message);
/** A `tables.patch` whose `If-Match` names another version of the table (another run changed it since it read it). */
export const preconditionFailed = () => new BigqueryFault(412, 'conditionNotMet', 'Precondition check failed.');

/** The 403 wording BigQuery uses: project-level for jobs, dataset-level for the rest. */
export function accessDenied(permission: string, project: string, dataset: string): BigqueryFault {
  return permission === 'bigquery.jobs.create'
    ? new BigqueryFault(
        403,
        'accessDenied',
        `Access Denied: Project ${project}: User does not have bigquery.jobs.create permission in project ${project}.`,
      )
    : new BigqueryFault(
        403,
        'accessDenied',
        `Access Denied: Dataset ${project}:${dataset}: Permission ${permission} denied on dataset ${project}:${dataset} (or it may not exist).`,
      );
}

/** A DuckDB error message as BigQuery would word it (the connector matches on reason, users read the text). */
export function fromDuckdb(error: unknown): BigqueryFault {
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  const column =
    /Referenced column "(\w+)" not found/.exec(message) ??
    /does not have a column (?:named|with name) "?(\w+)"?/.exec(message);
  if (column) return invalidQuery(`Unrecognized name: ${column[1]}`);
  const conversion = /^Conversion Error: (.*)$/.exec(message);
  if (conversion) return invalidQuery(`Invalid value: ${conversion[1]}`);
  const notNull = /NOT NULL constraint failed: (\w+)\.(\w+)/.exec(message);
  if (notNull) return invalidQuery(`Required field ${notNull[2]} cannot be null`);
  // What the stand-in's own SQL functions refuse, already in BigQuery's words.
  const refused = /^Invalid Input Error: (.*)$/.exec(message);
  if (refused) return invalidQuery(refused[1]!);
  return invalidQuery(message);
}

/** The transient failures BigQuery documents ("Troubleshoot errors"), each in its words. */
const TRANSIENT = {
  backendError: [500, 'Error encountered during execution. Retrying may solve the problem.'],
  internalError: [500, 'An internal error occurred and the request could not be completed.'],
  rateLimitExceeded: [
    403,
    'Exceeded rate limits: too many table update operations for this table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
  ],
  jobRateLimitExceeded: [400, 'Exceeded rate limits: too many concurrent queries for this project_and_region.'],
  unavailable: [503, 'The service is currently unavailable.'],
} as const;

export type TransientReason = keyof typeof TRANSIENT;

export function transientFault(reason: TransientReason): BigqueryFault {
  const [status, message] = TRANSIENT[reason];
  return new BigqueryFault(status, reason === 'unavailable' ? 'backendError' : reason, message);
}

/**
 * What BigQuery refuses in a job's id and labels before it makes the job, in its words, or
 * undefined. Job ids (JobReference): letters, digits, `_`, `-`, at most 1,024 characters.
 * Labels ("Labels" requirements): at most 64; keys 1-63 characters starting with a lowercase
 * letter, values up to 63; both only lowercase letters, digits, `_` and `-` (BigQuery also
 * allows international characters, which nothing here sends).
 */
export function invalidJobRequest(
  jobId: string | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): BigqueryFault | undefined {
  if (jobId !== undefined && !/^[A-Za-z0-9_-]{1,1024}$/.test(jobId))
    return invalid(
      `Invalid job ID "${jobId}". Job IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`,
    );
  const entries = Object.entries(labels ?? {});
  if (entries.length > MAX_LABELS)
    return invalid(`Too many labels: ${entries.length} given, at most ${MAX_LABELS} allowed.`);
  for (const [key, value] of entries) {
    if (!/^[a-z][a-z0-9_-]{0,62}$/.test(key)) return invalid(`Label key "${key}" has invalid characters.`);
    if (typeof value !== 'string' || !/^[a-z0-9_-]{0,63}$/.test(value))
      return invalid(`Label value "${String(value)}" has invalid characters.`);
  }
  return undefined;
}

const MAX_LABELS = 64;

/** A job run in one location that reads a dataset of another. */
export function wrongLocation(project: string, dataset: string, location: string): BigqueryFault {
  return notFound(`Dataset ${project}:${dataset} was not found in location ${location}`);
}
