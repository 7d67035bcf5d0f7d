/**
 * The workspaces suite on BigQuery with its faults on (SUITE_FAULTS): concurrent workspaces'
 * flushes into one dataset conflict with no BigQuery reruns left, jobs fail and uploads lose
 * their answers, and every workspace must still equal its own truth.
 */
import { expect, it, vi } from 'vitest';
import { SUITE_FAULTS, useBigqueryTarget } from '../support/targets/bigquery-target.ts';
import { runWorkspacesSuite } from './workspaces-suite.ts';

// Each test syncs several workspaces through dozens of BigQuery jobs, faults included.
vi.setConfig({ testTimeout: 180_000 });
const target = useBigqueryTarget(SUITE_FAULTS);
runWorkspacesSuite(target);

it('ran with every fault injected', () => {
  expect(Object.keys(target.standIn().injected).sort()).toEqual(['backendError', 'upload:lostResponse']);
});
