/**
 * The run lock. Across processes DuckDB's own file lock does the work (a second process
 * cannot open the file; `connectDuckdb` turns that into a `LockHeldError`). Inside one
 * process the live locks are kept here, and a `_aivis_lock` row records the holder for
 * users who look at the file.
 */
import type { LockOwner } from '../../src/destination/destination.ts';
import { lockHeldError } from '../../src/destination/run-lock.ts';

const held = new Map<string, LockOwner>();

/** Takes the lock on `schema` of `file` for `owner`, or throws `LockHeldError` naming the holder. */
export function takeProcessLock(file: string, schema: string, owner: LockOwner): () => void {
  const key = `${file}\u0000${schema}`;
  const holder = held.get(key);
  if (holder) throw lockHeldError(schema, holder);
  held.set(key, owner);
  return () => {
    if (held.get(key) === owner) held.delete(key);
  };
}
