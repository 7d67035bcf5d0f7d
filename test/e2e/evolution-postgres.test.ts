import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runEvolutionSuite } from './evolution-suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runEvolutionSuite(target);
