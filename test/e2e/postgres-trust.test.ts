import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runTrustSuite } from './trust-suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runTrustSuite(target);
