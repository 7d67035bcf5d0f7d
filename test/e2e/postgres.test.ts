import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runSyncSuite } from './sync-suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runSyncSuite(target);
