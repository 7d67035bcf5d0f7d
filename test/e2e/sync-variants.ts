/**
 * The end-to-end sync suite against sandbox variants: servers that answer differently from
 * the sandbox's default while following the spec. Each variant runs the suite's tests that
 * prove something for it (the others would only repeat the default run), on the same small
 * world:
 * - timestamps_without_seconds, nanosecond_timestamps: `incremental` and `in_flight`, where
 *   frontiers go back verbatim and timestamp columns are compared with the truth.
 * - has_more_false_with_cursor: `incremental`, `in_flight` and `runs_and_state` (the scan
 *   ends on the last page, one request per page, and no cursor is left in state).
 * - citations_without_ids: `incremental` and `in_flight`: every citation is stored under its
 *   hash key, and boundary rows read twice land on the same key.
 * - citations_require_analysis_id: `in_flight`, every sync read one scan per analysis
 *   (test/e2e/citations.test.ts checks the summary, the counts and the state scopes).
 * - revoked_mid_scan: `incremental` (the first website disappears during the first sync,
 *   which still equals the truth; test/e2e/revocation.test.ts checks the removal mark).
 */
import type { SandboxVariant } from '../../src/sandbox/index.ts';
import { runSyncSuite, type SuiteTest, type SyncTarget } from './sync-suite.ts';

/** The suite's tests each variant runs. */
export const VARIANT_TESTS: Partial<Record<SandboxVariant, readonly SuiteTest[]>> = {
  timestamps_without_seconds: ['incremental', 'in_flight'],
  nanosecond_timestamps: ['incremental', 'in_flight'],
  has_more_false_with_cursor: ['incremental', 'in_flight', 'runs_and_state'],
  citations_without_ids: ['incremental', 'in_flight'],
  citations_require_analysis_id: ['in_flight'],
  revoked_mid_scan: ['incremental'],
};

export function runVariantSuites(target: SyncTarget): void {
  for (const [variant, only] of Object.entries(VARIANT_TESTS) as [SandboxVariant, readonly SuiteTest[]][]) {
    runSyncSuite(target, { variants: [variant], only });
  }
}
