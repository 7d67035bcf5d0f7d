import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runSyncSuite } from './sync-suite.ts';
import { runVerifySuite } from './verify-suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runSyncSuite(target);
runVerifySuite(target);
