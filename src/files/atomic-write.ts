/**
 * Replaces a small file (the state file, the import journal) so that a crash leaves either
 * the old or the new content, and no other local user can read it or redirect the write.
 *
 * - The temporary file has an unpredictable name in the target's folder and is created
 *   exclusively (`wx`: O_CREAT | O_EXCL), so a symlink or file planted there in advance
 *   makes the write fail instead of being followed.
 * - Mode 0600: state and journals name websites, cursors and receipts of one workspace.
 * - The file is fsynced before the rename and the folder before and after it, so the rename
 *   never reaches the disk ahead of the bytes and survives a power loss once this resolves.
 *
 * The `write-file-atomic` package was considered: it opens its temporary file without
 * O_EXCL under a name derived from the pid and never fsyncs the folder.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomically(target: string, content: string): Promise<void> {
  const folder = path.dirname(target);
  const temporary = path.join(folder, `.${path.basename(target)}.${randomBytes(12).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await syncFolder(folder);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

/** Makes the folder's entries (the new name) durable. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
