/**
 * `state.path` is checked once per command (docs/architecture.md#state-rules): the CLI checks
 * it before anything opens and its store does not check it again; a file store built any other
 * way checks it before its first read.
 */
import { mkdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCommandResources } from '../../src/cli/command-resources.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { ConfigError } from '../../src/errors.ts';
import { FileStateStore } from '../../src/state/file-state-store.ts';
import { tempDir, writeConfig, yaml } from '../config/config-files.ts';

/** A past time for the state folder: a probe file created and removed in it would move its mtime. */
const PAST = new Date('2000-01-01T00:00:00Z');

describe('the state.path check', () => {
  it('runs once per command: the CLI checks before opening, and its store reads without checking again', async () => {
    const folder = path.join(await tempDir(), 'state');
    const file = await writeConfig(yaml`
      source: { base_url: https://api.example.com, api_key: "\${AIVIS_API_KEY}" }
      destination: { type: duckdb, path: aivis.duckdb }
      state: { store: file, path: ${path.join(folder, 'aivis-state.json')} }
    `);
    const { config, workspaces } = await loadConfig(file, { AIVIS_API_KEY: 'sk_test_state_path_1' });
    const resources = await openCommandResources(config, workspaces[0]!, 'sync');
    try {
      await utimes(folder, PAST, PAST);
      expect(await resources.stateStore.load()).toEqual([]);
      expect((await stat(folder)).mtime).toEqual(PAST);
    } finally {
      await resources.close();
    }
  });

  it('is made by a file store built without the CLI, before its first read', async () => {
    const folder = path.join(await tempDir(), 'state.json');
    await mkdir(folder);
    const error = await new FileStateStore(folder).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `state.path ${folder} cannot hold aivis state: it is not a regular file (a folder, a device or a FIFO)`,
    );
  });
});
