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
