/**
 * State in a local JSON file (`state.store: file`). The file is rewritten only after the
 * destination has committed the rows, through an exclusive temporary file and an atomic
 * rename (`writeFileAtomically`), so a crash leaves either the old or the new state, never a
 * torn file and never state ahead of the data; the file is readable by its owner only. Each
 * workspace has a file of its own (`stateFilePath`), so runs of several workspaces never
 * rewrite each other's.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Destination, FlushResult } from '../destination/destination.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { Flush, StateEntry } from './state-entry.ts';
import { ConfigError } from '../errors.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { checkStatePath } from './state-path.ts';
import { commitFlush } from './state-rows.ts';
import { parseStreamState } from './stream-state.ts';
import { matches, stateKey, type StateStore } from './state-store.ts';

interface StateFile {
  version: 1;
  entries: StateEntry[];
}

/** `state.path` for `default`; `aivis-state.json` -> `aivis-state.<workspace>.json` for the others. */
export function stateFilePath(configured: string, workspace: string): string {
  if (workspace === DEFAULT_WORKSPACE) return configured;
  const { dir, name, ext } = path.parse(configured);
  return path.join(dir, `${name}.${workspace}${ext}`);
}

export interface FileStateStoreOptions {
  /**
   * The caller already ran `checkStatePath` on this workspace's file (the CLI does, before
   * anything opens: `openCommandResources`). Otherwise the store checks it before its first read.
   */
  readonly pathChecked?: boolean;
}

export class FileStateStore implements StateStore {
  readonly #path: string;
  readonly #workspace: string;
  #pathChecked: boolean;
  #entries: Map<string, StateEntry> | undefined;

  constructor(configuredPath: string, workspace = DEFAULT_WORKSPACE, options: FileStateStoreOptions = {}) {
    this.#path = stateFilePath(configuredPath, workspace);
    this.#workspace = workspace;
    this.#pathChecked = options.pathChecked ?? false;
  }

  async load(): Promise<StateEntry[]> {
    return [...(await this.#read()).values()];
  }

  async commit(destination: Destination, flush: Flush): Promise<FlushResult> {
    const result = await commitFlush(destination, { tables: flush.tables, state: [] }, this.#workspace);
    if (flush.state.length > 0) {
      const entries = await this.#read();
      for (const entry of flush.state) entries.set(stateKey(entry.stream, entry.scope), entry);
      await this.#write(entries);
    }
    return result;
  }

  async delete(match: { stream?: string; scope?: string }): Promise<number> {
    const entries = await this.#read();
    let deleted = 0;
    for (const [key, entry] of entries) {
      if (matches(entry, match)) {
        entries.delete(key);
        deleted++;
      }
    }
    if (deleted > 0) await this.#write(entries);
    return deleted;
  }

  async #read(): Promise<Map<string, StateEntry>> {
    if (this.#entries) return this.#entries;
    if (!this.#pathChecked) {
      await checkStatePath(this.#path);
      this.#pathChecked = true;
    }
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.#entries = new Map());
      throw new ConfigError(`cannot read the state file ${this.#path}: ${(error as Error).message}`);
    }
    let parsed: StateFile;
    try {
      parsed = JSON.parse(text) as StateFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.entries))
        throw new Error('expected {"version": 1, "entries": [...]}');
    } catch (error) {
      throw new ConfigError(`the state file ${this.#path} is not valid aivis state: ${(error as Error).message}`);
    }
    this.#entries = new Map(
      parsed.entries.map((e) => [
        stateKey(e.stream, e.scope),
        { stream: e.stream, scope: e.scope, state: parseStreamState(e.state), updatedAt: e.updatedAt },
      ]),
    );
    return this.#entries;
  }

  async #write(entries: Map<string, StateEntry>): Promise<void> {
    const file: StateFile = { version: 1, entries: [...entries.values()] };
    await mkdir(path.dirname(this.#path), { recursive: true });
    await writeFileAtomically(this.#path, `${JSON.stringify(file, null, 2)}\n`);
  }
}
