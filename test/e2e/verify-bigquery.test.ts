/**
 * `aivis verify` on BigQuery with the shared suites' faults on: sub-millisecond window bounds
 * go as six-digit TIMESTAMP parameters, and the repair's flushes ride out failed jobs and lost
 * upload answers.
 */
import { vi } from 'vitest';
import { SUITE_FAULTS, useBigqueryTarget } from '../support/targets/bigquery-target.ts';
import { runVerifySuite } from './verify-suite.ts';

vi.setConfig({ testTimeout: 180_000 });
runVerifySuite(useBigqueryTarget(SUITE_FAULTS));
