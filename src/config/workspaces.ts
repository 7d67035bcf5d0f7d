/**
 * The API workspaces a config names (docs/architecture.md#config): `sources:` maps a name to
 * each workspace's source block; `source:` is the one workspace named `default`. Every
 * command reads workspaces through this list, never `source` or `sources` directly, so a
 * config of either shape runs the same code.
 */
import type { AivisConfig, SourceConfig } from '../../schemas/config.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { ConfigPath } from './config-issue.ts';

/** One workspace's name and source block, before its key is read. */
export interface WorkspaceSource {
  readonly name: string;
  readonly source: SourceConfig;
}

/** A workspace ready to call the API with: its key resolved and registered for redaction. */
export interface Workspace extends WorkspaceSource {
  readonly apiKey: string;
}

/** The config's workspaces, sorted by name (the order shards and summaries use). */
export function workspaceSources(config: AivisConfig): WorkspaceSource[] {
  if (config.source) return [{ name: DEFAULT_WORKSPACE, source: config.source }];
  return Object.entries(config.sources ?? {})
    .map(([name, source]) => ({ name, source }))
    .sort((a, b) => compareNames(a.name, b.name));
}

/**
 * The path of each workspace's source block in config data whose shape the schema has not
 * vouched for yet (secrets are checked before validation): `source` whenever it could be
 * there, and `sources.NAME` for each name under a `sources` mapping.
 */
export function sourceBlockPaths(sourcesNames: readonly string[]): ConfigPath[] {
  return [['source'], ...sourcesNames.map((name) => ['sources', name])];
}

/** Byte order, not locale order: a shard's members must not depend on the pod's locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
