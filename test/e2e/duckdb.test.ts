import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runSyncSuite } from './sync-suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runSyncSuite(target);
