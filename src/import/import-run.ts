/**
 * One `aivis import-prompts` run: check every input line (nothing is sent if any is bad),
 * then partition by partition, in file order: import it (journal first), hand its receipt to
 * the sink (the destination tables, when configured), and stop at the first partition that
 * fails for good, with its items mapped back to input lines.
 */
import { access } from 'node:fs/promises';
import type { Clock } from '../client/clock.ts';
import { ConfigError } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import { receiptDiagnostics, type SentRequest } from './import-diagnostics.ts';
import { capacityOf } from './receipt-capacity.ts';
import { ImportJournal } from './import-journal.ts';
import type { ImportOptions } from './import-options.ts';
import { partitionReport, summarize, type ImportReport, type PartitionReport } from './import-report.ts';
import { checkInput } from './input-check.ts';
import { importPartition, type PartitionOutcome } from './partition-import.ts';
import { partitionInput, type PartitionLimits } from './partitions.ts';
import type { KnownDigests } from './prompt-digest.ts';
import type { ImportHttp } from './receipt-client.ts';

/** Receives every partition outcome this run fetched a terminal receipt for. */
export interface ReceiptSink {
  write(outcome: PartitionOutcome): Promise<void>;
}

export interface ImportRunDeps {
  readonly http: ImportHttp;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sink?: ReceiptSink;
  /** Operations per partition before retryable failures give up; default 5. */
  readonly maxAttempts?: number;
  /** Tests shrink these to cut small files into several partitions. */
  readonly limits?: PartitionLimits;
  /**
   * Digests of the texts the website already has (table and query sources without `--all`):
   * rows with one of them are not sent.
   */
  readonly known?: KnownDigests;
  /** Salts the keys of `--all`, so every run sends new operations: the run id. */
  readonly runSalt?: string;
}

export async function runImport(options: ImportOptions, deps: ImportRunDeps): Promise<ImportReport> {
  if (!options.warehouse) {
    await access(options.file).catch(() => {
      throw new ConfigError(`--file ${options.file}: the file does not exist or cannot be read`);
    });
  }
  const checked = await checkInput(options, deps.known);
  deps.logger.info('input checked', { file: options.file, items: checked.items, known: checked.known });
  const expect = {
    website_id: options.websiteId,
    validate_only: options.validateOnly,
    classification: options.mode,
  };
  const now = new Date(deps.clock.now());
  const journal = options.journal
    ? await ImportJournal.open(options.journal, expect, now)
    : ImportJournal.unsaved(expect, now);
  const salt = options.all ? (deps.runSalt ?? journal.data.created_at) : '';
  const partitions: PartitionReport[] = [];
  let diagnostics: string[] | undefined;
  let sent = 0;
  for await (const partition of partitionInput(options, deps.limits, deps.known, checked.rows)) {
    sent += partition.lines.length;
    const outcome = await importPartition(partition, {
      http: deps.http,
      journal,
      clock: deps.clock,
      logger: deps.logger,
      websiteId: options.websiteId,
      maxAttempts: deps.maxAttempts ?? 5,
      keySalt: options.validateOnly ? `${journal.data.created_at}${salt}` : salt,
    });
    if (outcome.receipt) await deps.sink?.write(outcome);
    partitions.push(partitionReport(outcome));
    deps.logger.info('partition done', {
      partition: partition.index + 1,
      import_id: outcome.importId,
      status: outcome.status,
      origin: outcome.origin,
    });
    if (outcome.status === 'failed') {
      diagnostics = failureDiagnostics(outcome);
      break;
    }
  }
  const base = {
    website_id: options.websiteId,
    file: options.file,
    journal: options.journal ?? null,
    validate_only: options.validateOnly,
    classification: options.mode,
    partitions,
    ...(options.warehouse ? { rows: { read: checked.items, known: checked.known, sent } } : {}),
  };
  return summarize(diagnostics ? { ...base, diagnostics } : base);
}

function failureDiagnostics(outcome: PartitionOutcome): string[] {
  const { partition, error, receipt } = outcome;
  const head = `partition ${partition.index + 1} failed with ${error?.code} (not retryable); the run stopped before the next partition:`;
  const counts = receipt ? capacityOf(receipt) : {};
  const capacity =
    error?.code === 'prompt_limit_exceeded' && Object.keys(counts).length > 0
      ? [
          `active prompts ${counts.active_count ?? '?'}, projected ${counts.projected_active_count ?? '?'}, prompt_limit ${counts.prompt_limit ?? '?'}: free capacity, then validate and import again`,
        ]
      : [];
  // The body is parsed only here, for a failure that names items: what they lacked is in it.
  const sent =
    error?.code === 'classification_failed'
      ? (JSON.parse(Buffer.from(partition.body).toString('utf8')) as SentRequest)
      : undefined;
  return [head, ...capacity, ...(receipt ? receiptDiagnostics(receipt, partition, sent) : [])];
}
