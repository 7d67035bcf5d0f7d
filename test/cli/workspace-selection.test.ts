/** --workspace and --shard: their form, and the stable share of workspaces each selects. */
import { describe, expect, it } from 'vitest';
import { parseShard, parseWorkspaceFlags, selectWorkspaces } from '../../src/cli/workspace-selection.ts';
import { ConfigError } from '../../src/errors.ts';

const named = (...names: string[]) => names.map((name) => ({ name }));
const names = (workspaces: readonly { name: string }[]) => workspaces.map((w) => w.name);

/** The ConfigError (exit 2) `run` throws, by its message. */
function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    return (error as ConfigError).message;
  }
  throw new Error('expected a usage error');
}

describe('parseShard', () => {
  it('reads I/N with I counted from 0', () => {
    expect(parseShard(undefined)).toBeUndefined();
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    expect(parseShard('3/4')).toEqual({ index: 3, count: 4 });
  });

  it.each([
    ['1', '--shard "1" is not I/N: write this shard\'s index, counted from 0, and the number of shards, like 0/4'],
    [
      '-1/4',
      '--shard "-1/4" is not I/N: write this shard\'s index, counted from 0, and the number of shards, like 0/4',
    ],
    [
      '1/ 4',
      '--shard "1/ 4" is not I/N: write this shard\'s index, counted from 0, and the number of shards, like 0/4',
    ],
    [
      '$(JOB_COMPLETION_INDEX)/4',
      '--shard "$(JOB_COMPLETION_INDEX)/4" is not I/N: write this shard\'s index, counted from 0, and the number of shards, like 0/4',
    ],
    ['0/0', '--shard "0/0" has 0 shards: N must be at least 1'],
    ['4/4', '--shard "4/4" has no shard 4: with 4 shards, I runs from 0 to 3'],
    ['1/1', '--shard "1/1" has no shard 1: with 1 shard, I runs from 0 to 0'],
    ['0/99999999999999999999', '--shard "0/99999999999999999999" holds a number too large to count'],
  ])('refuses %j', (value, message) => {
    expect(usageError(() => parseShard(value))).toBe(message);
  });

  it('refuses the flag given twice', () => {
    expect(usageError(() => parseShard(['0/2', '1/2']))).toBe('--shard is given 2 times: give it once');
  });
});

describe('parseWorkspaceFlags', () => {
  it('reads a comma-separated --workspace, or a --shard, or neither', () => {
    expect(parseWorkspaceFlags({})).toEqual({});
    expect(parseWorkspaceFlags({ workspace: 'acme, globex' })).toEqual({ names: ['acme', 'globex'] });
    expect(parseWorkspaceFlags({ shard: '1/3' })).toEqual({ shard: { index: 1, count: 3 } });
  });

  it('refuses both at once, an empty list and a repeated flag', () => {
    expect(usageError(() => parseWorkspaceFlags({ workspace: 'acme', shard: '0/2' }))).toBe(
      '--workspace and --shard both choose workspaces: give one of them',
    );
    expect(usageError(() => parseWorkspaceFlags({ workspace: ' , ' }))).toBe(
      '--workspace is empty: name at least one workspace, or leave the flag out',
    );
    expect(usageError(() => parseWorkspaceFlags({ workspace: ['acme', 'globex'] }))).toBe(
      '--workspace is given 2 times: give it once, with a comma-separated list',
    );
  });
});

describe('selectWorkspaces', () => {
  const workspaces = named('initech', 'acme', 'globex', 'hooli', 'umbrella');

  it('takes every workspace, in name order, when no flag chooses', () => {
    expect(names(selectWorkspaces(workspaces, {}))).toEqual(['acme', 'globex', 'hooli', 'initech', 'umbrella']);
  });

  it('takes the named ones, in name order, once each', () => {
    expect(names(selectWorkspaces(workspaces, { names: ['umbrella', 'acme', 'umbrella'] }))).toEqual([
      'acme',
      'umbrella',
    ]);
  });

  it('refuses a name the config does not hold, listing those it does', () => {
    expect(usageError(() => selectWorkspaces(workspaces, { names: ['acme', 'globx'] }))).toBe(
      'unknown workspace "globx" in --workspace, did you mean "globex"? (the config\'s workspaces: acme, globex, hooli, initech, umbrella)',
    );
    expect(usageError(() => selectWorkspaces(named('default'), { names: ['production'] }))).toBe(
      'unknown workspace "production" in --workspace (the config\'s workspaces: default)',
    );
  });

  it('deals the sorted workspaces round the shards: every one in exactly one shard, sizes within one', () => {
    const shards = [0, 1, 2].map((index) => names(selectWorkspaces(workspaces, { shard: { index, count: 3 } })));
    expect(shards).toEqual([['acme', 'initech'], ['globex', 'umbrella'], ['hooli']]);
  });

  it('gives every pod the same answer whatever order the config lists the workspaces in', () => {
    const reversed = [...workspaces].reverse();
    for (const index of [0, 1, 2]) {
      const shard = { index, count: 3 };
      expect(names(selectWorkspaces(reversed, { shard }))).toEqual(names(selectWorkspaces(workspaces, { shard })));
    }
  });

  it('leaves a shard beyond the last workspace empty, and shard 0/1 takes them all', () => {
    expect(selectWorkspaces(named('acme', 'globex'), { shard: { index: 2, count: 3 } })).toEqual([]);
    expect(names(selectWorkspaces(workspaces, { shard: { index: 0, count: 1 } }))).toHaveLength(5);
  });
});
