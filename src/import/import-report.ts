/**
 * The result of one run, per partition and in total, as JSON (`--json`) and as the screen
 * summary. `totals` counts what this run's operations did; work an earlier run already did
 * (journal, or a replay answered 200) is counted apart, so a second run of the same command
 * shows `created: 0` and says why.
 */
import type { ResultCounts } from './import-journal.ts';
import type { PartitionOrigin, PartitionOutcome } from './partition-import.ts';
import { addCounts, emptyCounts } from './receipt-counts.ts';

export interface PartitionReport {
  partition: number;
  first_line: number;
  last_line: number;
  items: number;
  bytes: number;
  import_id: string | null;
  status: 'succeeded' | 'failed';
  origin: PartitionOrigin;
  attempts: number;
  error_code: string | null;
  counts: ResultCounts;
}

export interface ImportReport {
  website_id: string;
  file: string;
  /** NULL when the run kept no journal (a table or query source without `--journal`). */
  journal: string | null;
  validate_only: boolean;
  classification: string;
  status: 'succeeded' | 'failed';
  partitions: PartitionReport[];
  /** What this run's operations did. */
  totals: ResultCounts;
  /** Partitions an earlier run had already imported, and their counts. */
  earlier: { partitions: number; counts: ResultCounts };
  /**
   * Table and query sources: rows read, rows whose text the destination's receipts already
   * hold as created or skipped as a duplicate for the website (not sent), and rows sent.
   */
  rows?: { read: number; known: number; sent: number };
  /** Set when a non-retryable failure stopped the run: the failed items by input line. */
  diagnostics?: string[];
}

export function partitionReport(outcome: PartitionOutcome): PartitionReport {
  const { partition } = outcome;
  return {
    partition: partition.index + 1,
    first_line: partition.lines[0] ?? 0,
    last_line: partition.lines.at(-1) ?? 0,
    items: partition.lines.length,
    bytes: partition.body.length,
    import_id: outcome.importId ?? null,
    status: outcome.status,
    origin: outcome.origin,
    attempts: outcome.attempts,
    error_code: outcome.error?.code ?? null,
    counts: { ...emptyCounts(), ...outcome.counts },
  };
}

export function summarize(base: Omit<ImportReport, 'status' | 'totals' | 'earlier'>): ImportReport {
  const totals = emptyCounts();
  const earlier = { partitions: 0, counts: emptyCounts() };
  for (const p of base.partitions) {
    if (p.origin === 'this_run') addCounts(totals, p.counts);
    else {
      earlier.partitions++;
      addCounts(earlier.counts, p.counts);
    }
  }
  const status = base.partitions.some((p) => p.status === 'failed') ? 'failed' : 'succeeded';
  return { ...base, status, totals, earlier };
}

const ORIGIN_NOTE: Record<PartitionOrigin, string> = {
  this_run: '',
  replayed: ' (replayed: already run)',
  journal: ' (done in an earlier run)',
};

function describeCounts(counts: ResultCounts, validateOnly: boolean): string {
  const main = validateOnly ? `would create ${counts.would_create}` : `created ${counts.created}`;
  const skipped =
    (counts.skipped_request_duplicate ?? 0) +
    (counts.skipped_active_duplicate ?? 0) +
    (counts.skipped_inactive_duplicate ?? 0);
  return (
    `${main}, skipped ${skipped} (request duplicate ${counts.skipped_request_duplicate}, active duplicate ${counts.skipped_active_duplicate}, inactive duplicate ${counts.skipped_inactive_duplicate})` +
    `, failed ${counts.failed}, not processed ${counts.not_processed}`
  );
}

/** Rows read, already known, sent, created, skipped: what a scheduled run's log should show. */
function describeRows({ read, known, sent }: NonNullable<ImportReport['rows']>, report: ImportReport): string {
  const counts = report.totals;
  const skipped =
    (counts.skipped_request_duplicate ?? 0) +
    (counts.skipped_active_duplicate ?? 0) +
    (counts.skipped_inactive_duplicate ?? 0);
  const done = report.validate_only ? `would create ${counts.would_create}` : `created ${counts.created}`;
  const rows = `Rows: ${read} read, ${known} already known, ${sent} sent (${done}, skipped ${skipped})`;
  return sent === 0
    ? `${rows}. Nothing new to send: every row's prompt was already created or skipped as a duplicate for ${report.website_id} (--all sends every row again).`
    : rows;
}

/** The one-screen summary. */
export function renderReport(report: ImportReport): string {
  const kind = report.validate_only ? 'Validated' : 'Imported';
  const lines = [
    `${kind} ${report.file} into ${report.website_id} (classification ${report.classification}, ${report.journal === null ? 'no journal' : `journal ${report.journal}`})`,
  ];
  for (const p of report.partitions) {
    lines.push(
      `  partition ${p.partition}: ${report.rows ? 'rows' : 'lines'} ${p.first_line}-${p.last_line}, ${p.items} items, ${p.bytes} bytes, ${p.import_id ?? 'no receipt'} ${p.status}` +
        `${p.error_code ? ` (${p.error_code})` : ''}${ORIGIN_NOTE[p.origin]}${p.attempts > 1 ? `, ${p.attempts} operations` : ''}: ${describeCounts(p.counts, report.validate_only)}`,
    );
  }
  lines.push(`Total this run: ${describeCounts(report.totals, report.validate_only)}`);
  if (report.rows) lines.push(describeRows(report.rows, report));
  if (report.earlier.partitions > 0) {
    const what = report.validate_only
      ? `${report.earlier.counts.would_create} would be created`
      : `${report.earlier.counts.created} prompts were created then`;
    const all = report.earlier.partitions === report.partitions.length && report.status === 'succeeded';
    lines.push(
      `${all ? 'Nothing new: every partition was' : `${report.earlier.partitions} of ${report.partitions.length} partitions were`} already done by an earlier run (${what}).`,
    );
  }
  for (const line of report.diagnostics ?? []) lines.push(`  ${line}`);
  return lines.join('\n');
}
