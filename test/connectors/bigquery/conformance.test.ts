/** The conformance suite on BigQuery: the real client against the local stand-in, a dataset per test. */
import { useBigqueryTarget } from '../../support/targets/bigquery-target.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';

runConformanceSuite(useBigqueryTarget());
