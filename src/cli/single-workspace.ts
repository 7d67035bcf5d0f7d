/**
 * Until tables, state, locks and runs carry a `_workspace` (docs/architecture.md#config), one
 * destination holds one workspace's data: a second workspace's websites listing would read as
 * the removal of the first one's. A command that writes or reads that data therefore runs on
 * a config that names one workspace (under `source:` or as the only entry of `sources:`).
 */
import type { LoadedConfig } from '../config/load-config.ts';
import type { Workspace } from '../config/workspaces.ts';
import { ConfigError } from '../errors.ts';

/** The config's one workspace; a config naming more is refused with what to do instead. */
export function soleWorkspace(loaded: LoadedConfig, verb: string): Workspace {
  const [first, ...others] = loaded.workspaces;
  if (first && others.length === 0) return first;
  const names = loaded.workspaces.map((w) => w.name).join(', ');
  throw new ConfigError(
    `${loaded.path} names ${loaded.workspaces.length} workspaces (${names}): aivis ${verb} cannot keep their rows, state and locks apart in one destination yet; until it can, give each workspace a config of its own, each with its own destination schema`,
  );
}
