/**
 * How deeply JSON nests (levels of objects and arrays: a scalar is 0, `{}` is 1,
 * `{"a":[1]}` is 2), measured without recursion: a server may send a record nested thousands
 * of levels deep, and the recursive JSON helpers of V8 (`JSON.stringify`, a `JSON.parse`
 * reviver, `structuredClone`) overflow the stack on it.
 */

/** The most levels a record may nest; a deeper one is quarantined (docs/spec-reading.md#hostile-shapes). */
export const MAX_RECORD_DEPTH = 100;

/** Whether a parsed JSON value nests deeper than `limit`; stops at the first path that does. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The deepest nesting of JSON text (brackets inside strings do not count), in one pass over it. */
export function textNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x7d || code === 0x5d) depth--;
  }
  return deepest;
}
