/**
 * JSON text of a parsed JSON value, without recursion. `JSON.stringify` overflows the stack a
 * few thousand levels down, and a server may send a record nested deeper (spec 2 lets objects
 * carry any additional field), so text that must exist whatever the depth is written here.
 * With `sortKeys`, the canonical form: object keys sorted by UTF-16 code units (as RFC 8785
 * orders them), no whitespace. Integers kept exact with `JSON.rawJSON` are written as sent.
 */

const isRawJson = (JSON as unknown as { isRawJSON(value: unknown): value is { rawJSON: string } }).isRawJSON;

type Frame =
  | { items: readonly unknown[]; next: number }
  | { object: Readonly<Record<string, unknown>>; keys: string[]; next: number };

/**
 * @example serializeJson({ b: 1, a: [true, null] }) // '{"b":1,"a":[true,null]}'
 * @example serializeJson({ b: 1, a: [true, null] }, { sortKeys: true }) // '{"a":[true,null],"b":1}'
 */
export function serializeJson(value: unknown, options: { sortKeys?: boolean } = {}): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  /** Writes a scalar, or opens a container (its members follow from the stack). */
  const write = (item: unknown): void => {
    if (item === null || typeof item !== 'object') {
      out.push(scalar(item));
    } else if (isRawJson(item)) {
      out.push(item.rawJSON);
    } else if (Array.isArray(item)) {
      out.push('[');
      stack.push({ items: item, next: 0 });
    } else {
      const object = item as Record<string, unknown>;
      // As JSON.stringify: members whose value has no JSON form are left out.
      const keys = Object.keys(object).filter((key) => object[key] !== undefined && typeof object[key] !== 'function');
      if (options.sortKeys) keys.sort();
      out.push('{');
      stack.push({ object, keys, next: 0 });
    }
  };
  write(value);
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if ('items' in frame) {
      if (frame.next === frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.next > 0) out.push(',');
      write(frame.items[frame.next++] ?? null);
    } else {
      if (frame.next === frame.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      if (frame.next > 0) out.push(',');
      const key = frame.keys[frame.next++]!;
      out.push(JSON.stringify(key), ':');
      write(frame.object[key]);
    }
  }
  return out.join('');
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  return 'null';
}
