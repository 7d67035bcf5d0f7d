/** The conformance suite on the embedded DuckDB engine, a database file per test. */
import { afterAll } from 'vitest';
import { duckdbTarget } from '../../support/targets/duckdb-target.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runConformanceSuite(target);
