/**
 * The end-to-end sync suite on BigQuery: sandbox -> client -> engine -> real SDK -> stand-in;
 * and its first test again with nanosecond timestamps, which BigQuery refuses beyond six
 * fraction digits (frontiers with nanoseconds are proven by the Postgres and DuckDB runs).
 */
import { useBigqueryTarget } from '../support/targets/bigquery-target.ts';
import { runSyncSuite } from './sync-suite.ts';

const target = useBigqueryTarget();
runSyncSuite(target);
runSyncSuite(target, { variants: ['nanosecond_timestamps'], only: ['incremental'] });
