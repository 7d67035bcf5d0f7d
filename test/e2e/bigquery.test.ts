/** The end-to-end sync suite on BigQuery: sandbox -> client -> engine -> real SDK -> stand-in. */
import { useBigqueryTarget } from '../support/targets/bigquery-target.ts';
import { runSyncSuite } from './sync-suite.ts';

runSyncSuite(useBigqueryTarget());
