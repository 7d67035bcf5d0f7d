/**
 * The end-to-end sync suite against sandbox variants: servers that answer differently from
 * the sandbox's default while following the spec. Each variant runs, on the suite's small
 * world, the suite's tests that prove something for it (the others would only repeat the
 * default run), plus a check of its own behaviour (variant-checks/):
 * - timestamps_without_seconds, nanosecond_timestamps: `incremental` and `in_flight`, where
 *   frontiers go back verbatim and timestamp columns are compared with the truth.
 * - has_more_false_with_cursor: `incremental` and `runs_and_state` (the scan ends on the last
 *   page, one request per page, and no cursor is left in state).
 * - citations_without_ids: `incremental`: every citation is stored under its hash key, and
 *   the boundary rows the second sync reads again land on the same key.
 * - citations_require_analysis_id: `in_flight` (every sync reads one scan per analysis) and
 *   a check of the summary, the counts and the state scopes.
 * - revoked_mid_scan: `incremental` (the first website disappears during the first sync,
 *   which still equals the truth) and a check of the removal mark and the exit code.
 * - deep_records: none of the suite's tests (they expect exit 0; these runs exit 3 by
 *   design), its check instead: quarantine, exact text kept, the rest equal to the truth.
 * receipts_with_extra_fields concerns imports, not syncs: test/import/import-receipt-variant.test.ts.
 */
import type { SandboxVariant } from '../../src/sandbox/index.ts';
import { runSyncSuite, type SuiteTest, type SyncTarget, type VariantCheck } from './sync-suite.ts';
import { citationsPerAnalysisCheck } from './variant-checks/citations-per-analysis.ts';
import { deepRecordsCheck } from './variant-checks/deep-records.ts';
import { revokedMidScanCheck } from './variant-checks/revoked-mid-scan.ts';

/** What each variant runs: the suite's tests (`only`) and its own checks. */
export const VARIANT_RUNS: Partial<
  Record<SandboxVariant, { only: readonly SuiteTest[]; checks?: readonly VariantCheck[] }>
> = {
  timestamps_without_seconds: { only: ['incremental', 'in_flight'] },
  nanosecond_timestamps: { only: ['incremental', 'in_flight'] },
  has_more_false_with_cursor: { only: ['incremental', 'runs_and_state'] },
  citations_without_ids: { only: ['incremental'] },
  citations_require_analysis_id: { only: ['in_flight'], checks: [citationsPerAnalysisCheck] },
  revoked_mid_scan: { only: ['incremental'], checks: [revokedMidScanCheck] },
  deep_records: { only: [], checks: [deepRecordsCheck] },
};

export function runVariantSuites(target: SyncTarget): void {
  for (const [variant, run] of Object.entries(VARIANT_RUNS) as [
    SandboxVariant,
    NonNullable<(typeof VARIANT_RUNS)[SandboxVariant]>,
  ][]) {
    runSyncSuite(target, { variants: [variant], ...run });
  }
}
