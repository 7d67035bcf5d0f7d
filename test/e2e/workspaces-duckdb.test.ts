import { afterAll } from 'vitest';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { runWorkspacesSuite } from './workspaces-suite.ts';

const target = duckdbTarget();
afterAll(() => target.close());
runWorkspacesSuite(target);
