/** The conformance suite on BigQuery: the real client against the local stand-in, a dataset per test. */
import { useBigqueryTarget } from '../../support/targets/bigquery-target.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';

runConformanceSuite({
  ...useBigqueryTarget(),
  // BigQuery's JSONPath cannot name such a key: the fill leaves it NULL (docs/served-contract.md#schema-evolution).
  namesJsonKey: (key) => !/["\\]/.test(key),
});
