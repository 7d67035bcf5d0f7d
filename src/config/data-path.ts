/** Reads plain parsed config data by path, before the schema has vouched for its shape. */
import type { ConfigPath } from './config-issue.ts';

/** The value at `path`, or undefined when any step is missing or not a mapping or list. */
export function valueAt(data: unknown, path: ConfigPath): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}
