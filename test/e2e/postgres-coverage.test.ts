import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runCoverageSuite } from './coverage-suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runCoverageSuite(target);
