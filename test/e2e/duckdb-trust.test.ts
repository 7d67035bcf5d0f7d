import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runTrustSuite } from './trust-suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runTrustSuite(target);
