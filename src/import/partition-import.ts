/**
 * Takes one partition to a terminal receipt, resuming from its journal entry:
 * - no attempt yet, the last one failed retryably, or it was `refused` (a 4xx answer to the
 *   POST: no operation): a new attempt with a new key, recorded in the journal before the POST
 *   (spec 7: retry the whole batch with a new key);
 * - `sending` (killed before the answer was recorded): the same POST again, same key, same
 *   bytes; the service replays it (or creates it, if the first never arrived);
 * - `accepted`: poll the recorded receipt; if it is gone (expired), POST again with the key;
 * - `succeeded` with the same body: nothing to do, the partition was imported earlier;
 * - `failed` at the prompt limit: a re-run is the user's answer to it (capacity freed), so a
 *   new operation with a new key; replaying the old key would return the old failure for 30
 *   days. Other failures without retry are about the items themselves (classification): the
 *   same body would fail again, so the journal's answer is reported again; a changed body
 *   (the items fixed) is a new operation.
 * A 409 is a hard stop: the key was used for a different body (the file changed after an
 * operation that may have created prompts).
 */
import type { PromptImportReceipt } from '../../schemas/prompt-import-receipt.ts';
import { ApiError } from '../client/api-error.ts';
import type { Clock } from '../client/clock.ts';
import { AivisError } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import { detailDiagnostics } from './import-diagnostics.ts';
import {
  createdNothing,
  type ImportJournal,
  type JournalAttempt,
  type JournalPartition,
  type ResultCounts,
} from './import-journal.ts';
import { idempotencyKey } from './idempotency-key.ts';
import type { Partition } from './partitions.ts';
import { countItems } from './receipt-counts.ts';
import { pollReceipt, postPartition, type FetchedReceipt, type ImportHttp } from './receipt-client.ts';

/** Where the result of a partition comes from. */
export type PartitionOrigin =
  /** This run's requests ran the operation. */
  | 'this_run'
  /** The service answered the POST with an operation that was already terminal. */
  | 'replayed'
  /** The journal says an earlier run finished it; nothing was sent. */
  | 'journal';

export interface PartitionOutcome {
  readonly partition: Partition;
  readonly origin: PartitionOrigin;
  readonly status: 'succeeded' | 'failed';
  readonly counts: ResultCounts;
  readonly attempts: number;
  readonly importId?: string;
  readonly error?: { code: string; retryable: boolean };
  /** The terminal receipt, when this run fetched it. */
  readonly receipt?: PromptImportReceipt;
  /** That receipt as the API sent it. */
  readonly rawReceipt?: unknown;
}

export interface PartitionDeps {
  readonly http: ImportHttp;
  readonly journal: ImportJournal;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly websiteId: string;
  /** Operations per partition before giving up on retryable failures. */
  readonly maxAttempts: number;
  /** See `idempotencyKey`: empty for writes, the journal's start for validations. */
  readonly keySalt: string;
}

function journalMeta(partition: Partition): Omit<JournalPartition, 'attempts'> {
  return {
    first_line: partition.lines[0] ?? 0,
    last_line: partition.lines.at(-1) ?? 0,
    items: partition.lines.length,
    bytes: partition.body.length,
    body_sha256: partition.bodySha256,
  };
}

export async function importPartition(partition: Partition, deps: PartitionDeps): Promise<PartitionOutcome> {
  const { journal, clock, logger } = deps;
  const meta = journalMeta(partition);
  const known = journal.partition(partition.slot);
  const bodyChanged = known !== undefined && known.body_sha256 !== partition.bodySha256;
  const record = (attempt: Omit<JournalAttempt, 'updated_at'>) =>
    journal.record(partition.slot, meta, attempt, new Date(clock.now()));
  const attemptsSoFar = () => journal.partition(partition.slot)?.attempts.length ?? 0;
  const last = known?.attempts.at(-1);
  if (last?.status === 'succeeded' && !bodyChanged) {
    return {
      partition,
      origin: 'journal',
      status: 'succeeded',
      counts: last.counts ?? {},
      attempts: known!.attempts.length,
      ...(last.import_id ? { importId: last.import_id } : {}),
    };
  }
  // The journal's key is reused when the body changed under an operation that may have
  // created prompts: the service is the judge, and its 409 stops the run instead of importing
  // a changed file as if it were new. After one that created nothing (refused, or failed:
  // e.g. the items fixed after classification_failed) the new body is simply a new operation.
  const answeredFailure = last?.status === 'failed' && last.error?.code === 'prompt_limit_exceeded' && !bodyChanged;
  let attempt: Omit<JournalAttempt, 'updated_at'> | undefined =
    bodyChanged && last
      ? createdNothing(last)
        ? undefined
        : { ...last, status: 'sending' }
      : answeredFailure
        ? undefined
        : last;
  if (answeredFailure)
    logger.info('the last operation failed without retry; sending the partition as a new operation', {
      partition: partition.index + 1,
      previous: last?.error?.code,
    });
  let origin: PartitionOrigin = 'this_run';
  // When this client learned of the operation it polls: recorded in the journal for a run
  // that resumes one (the 'accepted' record is stamped then), the POST's answer otherwise.
  let acceptedAt = attempt?.status === 'accepted' && last ? Date.parse(last.updated_at) : clock.now();
  for (;;) {
    if (!attempt || attempt.status === 'refused' || (attempt.status === 'failed' && attempt.error?.retryable)) {
      const n = attemptsSoFar();
      // Refused requests ran no operation: only failed operations count against the limit.
      const failed = journal.partition(partition.slot)?.attempts.filter((a) => a.status === 'failed').length ?? 0;
      if (failed >= deps.maxAttempts) {
        throw new AivisError(
          `partition ${partition.index + 1} (${partition.unit}s ${meta.first_line}-${meta.last_line}) failed ${failed} times with retryable errors (last: ${attempt?.error?.code}); run the same command later to try again`,
        );
      }
      attempt = {
        idempotency_key: idempotencyKey(deps.websiteId, partition.bodySha256, n, deps.keySalt),
        status: 'sending',
      };
      origin = 'this_run';
      if (n > 0)
        logger.info('retrying partition as a new operation', {
          partition: partition.index + 1,
          attempt: n + 1,
          idempotency_key: attempt.idempotency_key,
        });
      await record(attempt);
    }
    let fetched: FetchedReceipt | undefined;
    if (attempt.status === 'sending') {
      const sending = attempt;
      // Recorded so that this journal never blocks a later run (import-journal.ts).
      const refused = (error: ApiError) =>
        record({
          ...sending,
          status: 'refused',
          error: { code: error.code ?? String(error.status), retryable: false },
        });
      const answer = await post(partition, sending.idempotency_key, deps, known?.body_sha256, refused);
      if (answer.status === 200) origin = 'replayed';
      attempt = { ...attempt, status: 'accepted', receipt_url: answer.receiptPath, import_id: answer.receipt.id };
      acceptedAt = clock.now();
      await record(attempt);
      if (answer.receipt.status === 'succeeded' || answer.receipt.status === 'failed') fetched = answer;
    }
    if (!fetched) {
      try {
        fetched = await pollReceipt(deps.http, clock, attempt.receipt_url!, acceptedAt, (r) =>
          logger.debug('import running', { partition: partition.index + 1, status: r.status }),
        );
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        logger.warn('receipt no longer exists; sending the partition again with its key', {
          partition: partition.index + 1,
          import_id: attempt.import_id,
        });
        attempt = { ...attempt, status: 'sending' };
        await record(attempt);
        continue;
      }
    }
    const { receipt, raw: rawReceipt } = fetched;
    const counts = countItems(receipt.status === 'succeeded' || receipt.status === 'failed' ? receipt.items : []);
    const error =
      receipt.status === 'failed' ? { code: receipt.error.code, retryable: receipt.error.retryable } : undefined;
    attempt = {
      ...attempt,
      status: receipt.status === 'succeeded' ? 'succeeded' : 'failed',
      counts,
      ...(error ? { error } : {}),
    };
    await record(attempt);
    if (error?.retryable) {
      logger.warn('partition failed with a retryable error', {
        partition: partition.index + 1,
        code: error.code,
        import_id: receipt.id,
      });
      continue;
    }
    return {
      partition,
      origin,
      status: error ? 'failed' : 'succeeded',
      counts,
      attempts: attemptsSoFar(),
      importId: receipt.id,
      receipt,
      rawReceipt,
      ...(error ? { error } : {}),
    };
  }
}

/**
 * A 4xx answer to the POST means no operation was created for this request. Not a 409: its key
 * already names an operation (of another body) that may have created prompts.
 */
function refusedOperation(error: ApiError): boolean {
  return error.status >= 400 && error.status < 500 && error.status !== 409;
}

async function post(
  partition: Partition,
  key: string,
  deps: PartitionDeps,
  journalSha: string | undefined,
  refused: (error: ApiError) => Promise<void>,
) {
  try {
    return await postPartition(deps.http, deps.websiteId, key, partition.body);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (refusedOperation(error)) await refused(error);
    const where = `partition ${partition.index + 1} (${partition.unit}s ${partition.lines[0]}-${partition.lines.at(-1)})`;
    if (error.status === 409) {
      const why =
        journalSha !== undefined && journalSha !== partition.bodySha256
          ? `the input changed since the journal ${deps.journal.path} recorded this partition (the same Idempotency-Key now carries different items)`
          : `the Idempotency-Key of this partition was already used for a different request`;
      throw new AivisError(
        `${where}: the service refused the import with 409 idempotency_conflict (request_id ${error.requestId ?? 'none'}): ${why}. Nothing more was sent. ` +
          `To import the file as it is now, pass a new --journal path (or delete ${deps.journal.path}); to resume the old import, restore the original file.`,
      );
    }
    if (error.status === 400 && error.details.length) {
      throw new AivisError(
        `${where}: the service refused the request (400 invalid_request, request_id ${error.requestId ?? 'none'}):\n  ${detailDiagnostics(error.details, partition).join('\n  ')}`,
      );
    }
    throw error;
  }
}
