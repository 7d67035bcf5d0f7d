import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runVariantSuites } from './sync-variants.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runVariantSuites(target);
