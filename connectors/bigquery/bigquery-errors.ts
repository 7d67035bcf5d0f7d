/**
 * Turns a failed BigQuery call into a `DestinationError` that says what failed and, for a
 * permission error, which role grants the missing permission.
 */
import { DestinationError, ExitCode } from '../../src/errors.ts';

/** The predefined role that carries each permission the connector needs, and where to grant it. */
const ROLE_FOR_PERMISSION: Readonly<Record<string, string>> = {
  'bigquery.jobs.create': 'grant roles/bigquery.jobUser on the project',
  'bigquery.datasets.create': 'grant roles/bigquery.dataEditor on the project, or create the dataset yourself',
  'bigquery.datasets.get': 'grant roles/bigquery.dataEditor on the dataset',
  'bigquery.tables.create': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.get': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.getData': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.update': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.updateData': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.delete': 'grant roles/bigquery.dataEditor',
};

interface ApiErrorLike {
  code?: number;
  message?: string;
  errors?: { reason?: string; message?: string }[];
}

export function apiErrorCode(error: unknown): number | undefined {
  return (error as ApiErrorLike | null)?.code;
}

/**
 * BigQuery's answer to a mutating statement that lost to a concurrent one on the same table,
 * once its own reruns are used up (DML documentation, "DML statement conflicts").
 */
export function isConcurrentUpdate(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return /Could not serialize access to table \S+ due to concurrent update/.test(
    (cause as ApiErrorLike | null)?.message ?? '',
  );
}

/**
 * The two forms BigQuery words a 403 in: `Permission bigquery.tables.create denied on dataset
 * p:aivis (or it may not exist).` and `User does not have bigquery.jobs.create permission in
 * project p.`
 */
const PERMISSION_MESSAGES = [
  /Permission (bigquery\.[\w.]+) denied on (?:\w+ )?([^\s(]+)/,
  /does not have (bigquery\.[\w.]+) permission in (?:\w+ )?([^\s(]+?)\.?(?:\s|$)/,
];

export function missingPermission(error: unknown): { permission: string; resource: string } | undefined {
  const message = (error as ApiErrorLike | null)?.message ?? '';
  for (const pattern of PERMISSION_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return { permission: match[1]!, resource: match[2]! };
  }
  return undefined;
}

/**
 * `what` names the operation (`load into aivis.mentions`); the BigQuery message follows, and
 * for a permission error the fix: `bigquery.tables.create on dataset aivis: grant roles/bigquery.dataEditor`.
 */
export function bigqueryError(what: string, error: unknown, dataset: string): DestinationError {
  const missing = missingPermission(error);
  if (missing) {
    const fix = ROLE_FOR_PERMISSION[missing.permission] ?? 'grant roles/bigquery.dataEditor and roles/bigquery.jobUser';
    const where = missing.permission === 'bigquery.jobs.create' ? `project ${missing.resource}` : `dataset ${dataset}`;
    return new DestinationError(
      `BigQuery ${what}: permission denied: ${missing.permission} on ${where}: ${fix}`,
      ExitCode.Failure,
      { cause: error },
    );
  }
  const e = (error ?? {}) as ApiErrorLike;
  const reason = e.errors?.[0]?.reason;
  const message = e.message ?? String(error);
  return new DestinationError(`BigQuery ${what} failed: ${message}${reason ? ` (${reason})` : ''}`, ExitCode.Failure, {
    cause: error,
  });
}
