import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runSyncSuite } from './sync-suite.ts';
import { runVerifySuite } from './verify-suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runSyncSuite(target);
runVerifySuite(target);
