import { describe, expect, it } from 'vitest';
import { checkMassRemoval, MassRemovalError, websitesToRemove } from '../../src/run/reconcile-websites.ts';

describe('website reconciliation', () => {
  it('removes exactly the active websites a complete listing no longer names', () => {
    expect(websitesToRemove(['web_a', 'web_b', 'web_c'], new Set(['web_a', 'web_c', 'web_new']))).toEqual(['web_b']);
  });

  it('allows removing up to half of the known websites', () => {
    expect(() => checkMassRemoval(2, 4, false)).not.toThrow();
    expect(() => checkMassRemoval(0, 0, false)).not.toThrow();
  });

  it('refuses removing more than half, or all, unless allowed', () => {
    expect(() => checkMassRemoval(3, 4, false)).toThrow(MassRemovalError);
    expect(() => checkMassRemoval(1, 1, false)).toThrow(
      'the website listing would mark 1 of 1 known websites as removed (all of them); nothing was written. ' +
        'If the API key now belongs to another workspace, fix source.api_key. ' +
        'If the websites really were deleted, run again with --allow-mass-removal.',
    );
    expect(() => checkMassRemoval(3, 5, false)).toThrow(
      'would mark 3 of 5 known websites as removed (more than half of them)',
    );
    expect(() => checkMassRemoval(5, 5, true)).not.toThrow();
  });

  it('exits 1 when refusing', () => {
    try {
      checkMassRemoval(2, 2, false);
    } catch (error) {
      expect((error as MassRemovalError).exitCode).toBe(1);
      return;
    }
    throw new Error('expected a refusal');
  });
});
