/**
 * Walks a YAML document by config path: finds the line of a key (for messages) and visits
 * every string value with its path (for `${VAR}` substitution and secret checks).
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node, type Scalar } from 'yaml';
import type { ConfigPath } from './config-issue.ts';

/** Maps a config path to the 1-based line of the key (or list item) it names. */
export type LineOf = (path: ConfigPath) => number;

/**
 * The line of the deepest key along `path` that exists in the file: a missing key is
 * reported on the line of the mapping that should hold it.
 */
export function createLineOf(doc: Document, lineCounter: LineCounter): LineOf {
  const lineAt = (offset: number | undefined) => (offset === undefined ? 1 : lineCounter.linePos(offset).line);
  return (path) => {
    let node: unknown = doc.contents;
    let line = lineAt((doc.contents as Node | null)?.range?.[0]);
    for (const segment of path) {
      const child = childOf(node, segment);
      if (!child) break;
      line = lineAt(child.anchor?.range?.[0]);
      node = child.value;
    }
    return line;
  };
}

/** Calls `visit` for every scalar value (never a key) with its config path. */
export function forEachScalar(doc: Document, visit: (scalar: Scalar, path: ConfigPath) => void): void {
  const walk = (node: unknown, path: ConfigPath): void => {
    if (isScalar(node)) visit(node, path);
    else if (isMap(node)) {
      for (const pair of node.items) walk(pair.value, [...path, keyName(pair.key)]);
    } else if (isSeq(node)) {
      for (const [i, item] of node.items.entries()) walk(item, [...path, i]);
    }
    // Aliases are skipped: they point at an anchored node that the walk reaches itself.
  };
  walk(doc.contents, []);
}

/**
 * The scalar whose value `path` takes, following aliases (`api_key: *k` is the `&k` node), or
 * undefined when it is not a scalar. Before substitution this is the raw text.
 */
export function scalarAt(doc: Document, path: ConfigPath): Scalar | undefined {
  const node = nodeAt(doc, path);
  return isScalar(node) ? node : undefined;
}

/** The keys of the mapping at `path`, aliases followed; none when there is no mapping there. */
export function keysAt(doc: Document, path: ConfigPath): string[] {
  const node = nodeAt(doc, path);
  return isMap(node) ? node.items.map((pair) => keyName(pair.key)) : [];
}

function nodeAt(doc: Document, path: ConfigPath): unknown {
  const resolved = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);
  let node = resolved(doc.contents);
  for (const segment of path) {
    const child = childOf(node, segment);
    if (!child) return undefined;
    node = resolved(child.value);
  }
  return node;
}

interface Child {
  /** The node whose start is "the line of this key": the key of a pair, or a list item. */
  anchor: Node | null | undefined;
  value: unknown;
}

function childOf(node: unknown, segment: string | number): Child | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && keyName(p.key) === String(segment));
    return pair ? { anchor: pair.key as Node, value: pair.value } : undefined;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment] as Node | undefined;
    return item ? { anchor: item, value: item } : undefined;
  }
  return undefined;
}

function keyName(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}
