/**
 * Work that must not overlap within this process, queued per key: catalog changes that a
 * warehouse (or its stand-in) fails or misreads when two workspaces' runs make them at once.
 */

/** A queue per key: each call's `work` starts once every earlier call with that key has settled. */
export function serialByKey(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const queues = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => {}).then(work);
    queues.set(key, next);
    return next;
  };
}
