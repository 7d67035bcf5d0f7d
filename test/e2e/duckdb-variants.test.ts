import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runVariantSuites } from './sync-variants.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runVariantSuites(target);
