import { useBigqueryTarget } from '../support/targets/bigquery-target.ts';
import { runEvolutionSuite } from './evolution-suite.ts';

runEvolutionSuite(useBigqueryTarget());
