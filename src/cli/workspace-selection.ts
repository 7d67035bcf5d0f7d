/**
 * Which of the config's workspaces a command runs (docs/architecture.md#cli): `--workspace
 * a,b` names them, `--shard I/N` takes shard I of N (a Kubernetes Indexed Job's completion
 * index, an Airflow mapped task's index), neither takes them all.
 *
 * A shard is every workspace at a position p, in name order, with p % N == I: shards differ
 * in size by one at most, and the same config gives every pod the same answer. Adding or
 * removing a workspace may move others to another shard; that is harmless, since each
 * workspace's state and lock live in the destination, not in the pod that ran it last.
 */
import { closestMatch } from '../config/closest-match.ts';
import { compareNames } from '../config/workspaces.ts';
import { ConfigError } from '../errors.ts';
import { parseSelection } from './cli-arguments.ts';

/** Shard `index` (0-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The flags as yargs parsed them; a flag given twice arrives as a list. */
export interface WorkspaceFlags {
  workspace?: string | string[];
  shard?: string | string[];
}

/** What the flags ask for, checked for form but not yet against a config. */
export interface WorkspaceSelection {
  /** `--workspace`: these names. */
  readonly names?: readonly string[];
  /** `--shard`: this share of the names. */
  readonly shard?: Shard;
}

const SHARD = /^(\d+)\/(\d+)$/;

/** Checks the flags' form before any config is read; a bad one is a usage error naming the flag. */
export function parseWorkspaceFlags(flags: WorkspaceFlags): WorkspaceSelection {
  const names = parseSelection(flags.workspace, '--workspace', 'workspace');
  const shard = parseShard(flags.shard);
  if (names !== undefined && shard !== undefined) {
    throw new ConfigError('--workspace and --shard both choose workspaces: give one of them');
  }
  return { ...(names ? { names } : {}), ...(shard ? { shard } : {}) };
}

/**
 * `--shard I/N`, I counted from 0.
 * @example parseShard('2/4') // { index: 2, count: 4 }
 */
export function parseShard(value: string | string[] | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new ConfigError(`--shard is given ${value.length} times: give it once`);
  const match = SHARD.exec(value);
  if (!match) {
    throw new ConfigError(
      `--shard "${value}" is not I/N: write this shard's index, counted from 0, and the number of shards, like 0/4`,
    );
  }
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count)) {
    throw new ConfigError(`--shard "${value}" holds a number too large to count`);
  }
  if (count === 0) throw new ConfigError(`--shard "${value}" has 0 shards: N must be at least 1`);
  if (index >= count) {
    throw new ConfigError(
      `--shard "${value}" has no shard ${index}: with ${count} shard${count === 1 ? '' : 's'}, I runs from 0 to ${count - 1}`,
    );
  }
  return { index, count };
}

/**
 * The workspaces `selection` takes from `workspaces`, in name order. A name the config does
 * not hold is a usage error listing the ones it does.
 */
export function selectWorkspaces<W extends { readonly name: string }>(
  workspaces: readonly W[],
  selection: WorkspaceSelection,
): W[] {
  const sorted = [...workspaces].sort((a, b) => compareNames(a.name, b.name));
  const known = sorted.map((w) => w.name);
  for (const name of selection.names ?? []) {
    if (known.includes(name)) continue;
    const suggestion = closestMatch(name, known);
    throw new ConfigError(
      `unknown workspace "${name}" in --workspace${suggestion ? `, did you mean "${suggestion}"?` : ''} (the config's workspaces: ${known.join(', ')})`,
    );
  }
  const { names, shard } = selection;
  if (names) return sorted.filter((w) => names.includes(w.name));
  if (shard) return sorted.filter((_, position) => position % shard.count === shard.index);
  return sorted;
}

/**
 * The one workspace a report reads (`verify`, `status`: one workspace's listing, state, runs
 * and budget per report): the selection must come to exactly one.
 */
export function selectOneWorkspace<W extends { readonly name: string }>(
  workspaces: readonly W[],
  selection: WorkspaceSelection,
  verb: string,
): W {
  const [workspace, ...more] = selectWorkspaces(workspaces, selection);
  if (workspace && more.length === 0) return workspace;
  throw new ConfigError(
    `aivis ${verb} reads one workspace at a time: name it with --workspace (the config's workspaces: ${workspaces.map((w) => w.name).join(', ')})`,
  );
}
