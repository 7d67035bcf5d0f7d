import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runEvolutionSuite } from './evolution-suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runEvolutionSuite(target);
