/**
 * A contract document made safe to read (docs/served-contract.md#what-is-read): every `$ref`
 * that points inside the document is replaced by what it points to, and nothing outside the
 * document is ever read: no file, no URL. The walk is aivis's own, without recursion, so no
 * shape of document reaches the end of the stack, and it is bounded as it goes:
 * - what cannot be followed inside the document (a `$ref` to a file or URL, a pointer to
 *   nothing, the point where a cycle comes back, nesting past `MAX_SCHEMA_DEPTH`) becomes `{}`,
 *   untyped JSON;
 * - a pointer that is not a JSON pointer (`#/components/%E0%A4%A`), a chain of more than
 *   `MAX_REF_CHAIN` references, or a document that dereferences to more than
 *   `MAX_CONTRACT_NODES` nodes or `MAX_CONTRACT_TEXT` characters (references that fan out or
 *   repeat a long text, counted as they would expand, strings by their length) makes the
 *   document unusable;
 * - a `description` is cut to `MAX_DESCRIPTION_LENGTH` characters and made text every
 *   destination stores (no NUL, no lone surrogate): it becomes column descriptions.
 * References share the objects they point to; nothing is copied per reference.
 */

/** Deepest nesting of the dereferenced document kept; deeper is untyped JSON. */
const MAX_SCHEMA_DEPTH = 64;
/** Most objects, arrays and values of the dereferenced document (the bundled one has about 8,000). */
export const MAX_CONTRACT_NODES = 200_000;
/** Most characters of the dereferenced document as JSON text, as served (the bundled one has about 145,000). */
export const MAX_CONTRACT_TEXT = 16 * 1024 * 1024;
/** Most references followed from one place to what they finally point to. */
export const MAX_REF_CHAIN = 64;
/** Longest description kept; a longer one is cut and ends with `…`. */
export const MAX_DESCRIPTION_LENGTH = 2_000;

/** An OpenAPI document, dereferenced and bounded: a finite tree of plain JSON. */
export interface ContractDocument {
  readonly openapi: string;
  readonly paths: { readonly [path: string]: unknown };
}

/** Why a document cannot be the contract in force. */
export class UnusableContractError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A served text quoted for a message: escaped, at most 80 characters. */
const quoted = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** A served value named in a message without writing it whole (it may be nested thousands of levels). */
function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return quoted(value);
  if (typeof value !== 'object' || value === null) return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

/**
 * The target of a JSON pointer inside `root` (`#/components/schemas/A`), or undefined when it
 * points outside the document or to nothing.
 * @throws UnusableContractError when the pointer's percent-encoding is broken
 */
function pointTo(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(token);
    } catch {
      throw new UnusableContractError(`its $ref ${quoted(ref)} is not a valid JSON pointer`);
    }
    const key = decoded.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = /^\d+$/.test(key) ? node[Number(key)] : undefined;
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Where a reference chain ends: the value it points to, or `{}` where it cannot be followed. */
interface Resolved {
  /** What is read there: the target, with the keywords written beside its `$ref`s over its own. */
  readonly value: unknown;
  /** The target itself. */
  readonly target: unknown;
  /** The objects met on the way (the one holding the first `$ref` included): each one's expansion is under way. */
  readonly via: readonly object[];
}

/**
 * Follows `$ref`s from `node` to a value that is not one. An object with keywords beside its
 * `$ref` keeps them over its target's (as the 3.1 dialect reads it).
 */
function resolve(root: unknown, node: unknown): Resolved {
  const via: object[] = [];
  let value = node;
  let beside: Record<string, unknown> | undefined;
  while (isObject(value) && typeof value.$ref === 'string') {
    const ref = value.$ref;
    if (via.includes(value)) return { value: {}, target: {}, via };
    if (via.length === MAX_REF_CHAIN)
      throw new UnusableContractError(
        `its $ref ${quoted(String((via[0] as { $ref: string }).$ref))} starts a chain of more than ${MAX_REF_CHAIN} references`,
      );
    via.push(value);
    const { $ref: _, ...keywords } = value;
    if (Object.keys(keywords).length > 0) beside = { ...keywords, ...beside };
    value = pointTo(root, ref);
    if (value === undefined) return { value: {}, target: {}, via };
  }
  return { value: beside !== undefined && isObject(value) ? { ...value, ...beside } : value, target: value, via };
}

const LONE_SURROGATE_OR_NUL = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A description as every destination stores it: cut, well-formed, no NUL. */
function storableDescription(text: string): string {
  const cut = text.length > MAX_DESCRIPTION_LENGTH ? `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…` : text;
  return cut.replace(LONE_SURROGATE_OR_NUL, '\uFFFD');
}

/** One place of the tree still to fill: the value found at `key` of `parent`, from `source`. */
interface Pending {
  readonly source: unknown;
  readonly parent: JsonObject | Json[];
  readonly key: string | number;
  readonly depth: number;
  /** The source objects whose expansion holds this place: a cycle comes back to one of them. */
  readonly within: Ancestry | undefined;
}

interface Ancestry {
  readonly node: object;
  readonly up: Ancestry | undefined;
}

function isWithin(ancestry: Ancestry | undefined, node: object): boolean {
  for (let at = ancestry; at !== undefined; at = at.up) if (at.node === node) return true;
  return false;
}

/** JSON text length of a scalar (a string as served, before a description is cut). */
const textLength = (value: unknown) => (typeof value === 'string' ? value.length + 2 : String(value).length);

/**
 * The document with every internal `$ref` replaced, as a bounded tree, walked with a stack of
 * places to fill rather than by recursion.
 */
function dereferencedTree(root: Record<string, unknown>): JsonObject {
  const tree: JsonObject = {};
  const budget = { nodes: MAX_CONTRACT_NODES, text: MAX_CONTRACT_TEXT };
  const spend = (nodes: number, text: number) => {
    budget.nodes -= nodes;
    budget.text -= text;
    if (budget.nodes < 0)
      throw new UnusableContractError(
        `it dereferences to more than ${MAX_CONTRACT_NODES.toLocaleString('en-US')} nodes`,
      );
    if (budget.text < 0)
      throw new UnusableContractError(
        `it dereferences to more than ${MAX_CONTRACT_TEXT.toLocaleString('en-US')} characters`,
      );
  };
  const pending: Pending[] = Object.entries(root)
    .reverse()
    .map(([key, source]) => ({ source, parent: tree, key, depth: 1, within: { node: root, up: undefined } }));
  while (pending.length > 0) {
    const place = pending.pop()!;
    const { value, target, via } = resolve(root, place.source);
    const set = (json: Json) => {
      (place.parent as Record<string | number, Json>)[place.key] = json;
    };
    if (typeof value !== 'object' || value === null) {
      spend(1, textLength(value) + (typeof place.key === 'string' ? place.key.length + 3 : 1));
      const isDescription = place.key === 'description' && typeof value === 'string' && !Array.isArray(place.parent);
      set(isDescription ? storableDescription(value) : (value as Json));
      continue;
    }
    spend(1, 2 + (typeof place.key === 'string' ? place.key.length + 3 : 1));
    const met = [value, target as object, ...via];
    if (place.depth >= MAX_SCHEMA_DEPTH || met.some((node) => isWithin(place.within, node))) {
      set(Array.isArray(value) ? [] : {});
      continue;
    }
    let within = place.within;
    for (const node of met) within = { node, up: within };
    const depth = place.depth + 1;
    if (Array.isArray(value)) {
      const items: Json[] = [];
      set(items);
      for (let i = value.length - 1; i >= 0; i--)
        pending.push({ source: value[i], parent: items, key: i, depth, within });
    } else {
      const object: JsonObject = {};
      set(object);
      const entries = Object.entries(value);
      // Keys are filled in their order: the stack takes the last first.
      for (let i = entries.length - 1; i >= 0; i--)
        pending.push({ source: entries[i]![1], parent: object, key: entries[i]![0], depth, within });
    }
  }
  return tree;
}

/**
 * @param body the document as parsed JSON (not modified)
 * @throws UnusableContractError when it is not an OpenAPI 3.x document, cannot be followed or is too large once dereferenced
 */
export async function readContractDocument(body: unknown): Promise<ContractDocument> {
  if (!isObject(body)) throw new UnusableContractError('it is not a JSON object');
  if (typeof body.openapi !== 'string' || !/^3\.\d+(?:\.\d+)?(?:-[\w.]+)?$/.test(body.openapi))
    throw new UnusableContractError(`it is not an OpenAPI 3.x document (openapi: ${describeValue(body.openapi)})`);
  if (!isObject(body.paths)) throw new UnusableContractError('it has no paths object');
  const tree = dereferencedTree(body);
  return { openapi: body.openapi, paths: tree.paths as Record<string, Json> };
}
