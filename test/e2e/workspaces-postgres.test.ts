import { afterAll, inject } from 'vitest';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { runWorkspacesSuite } from './workspaces-suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
runWorkspacesSuite(target);
