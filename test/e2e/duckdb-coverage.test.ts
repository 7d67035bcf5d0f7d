import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runCoverageSuite } from './coverage-suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runCoverageSuite(target);
