/**
 * `state.path` is checked before a run reads or does any work (docs/architecture.md#state-rules):
 * its folder must exist or be creatable and take a new file, and the path itself, when it
 * exists, must be a regular file. A path that fails (under `/proc` or `/sys`, a folder, a
 * device, a FIFO, a read-only folder) is a usage error (exit 2) at once, never a read that
 * blocks or a run whose every commit then fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.ts';

export async function checkStatePath(file: string): Promise<void> {
  const folder = path.dirname(file);
  const unusable = (why: string) => new ConfigError(`state.path ${file} cannot hold aivis state: ${why}`);
  const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);
  const existing = await stat(file).catch((error: unknown) => {
    if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return undefined;
    throw unusable(`it cannot be read (${code(error)})`);
  });
  if (existing && !existing.isFile()) throw unusable('it is not a regular file (a folder, a device or a FIFO)');
  try {
    await createFolder(folder);
  } catch (error) {
    throw unusable(`its folder ${folder} cannot be created (${code(error)})`);
  }
  // The state is replaced by a new file beside it (`writeFileAtomically`): the folder must take one now, not at the first commit.
  const probe = path.join(folder, `.aivis-probe-${randomBytes(6).toString('hex')}`);
  try {
    await (await open(probe, 'wx', 0o600)).close();
  } catch (error) {
    throw unusable(`its folder ${folder} does not take new files (${code(error)})`);
  }
  await rm(probe, { force: true });
}

/**
 * Creates the missing folders one level at a time from the nearest one that exists. Node's
 * `mkdir(..., { recursive: true })` never returns for a missing folder under `/proc/self`
 * (it spins), so it is not used on a path not yet known to be a real one.
 */
async function createFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  let at = folder;
  while (!(await stat(at).catch(() => undefined))) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing) await mkdir(level);
}
