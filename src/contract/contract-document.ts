/**
 * A contract document made safe to read (docs/served-contract.md#what-is-read): every `$ref`
 * that points inside the document is replaced by what it points to, by
 * `@apidevtools/json-schema-ref-parser` with every resolver off, so nothing outside the
 * document is ever read: no file, no URL. What cannot be followed inside the document (a
 * `$ref` to a file or URL, a pointer to nothing, the point where a cycle comes back, nesting
 * past `MAX_SCHEMA_DEPTH`) becomes `{}`, untyped JSON. A document that dereferences to more than `MAX_CONTRACT_NODES`
 * nodes (references that fan out) is refused rather than expanded.
 */
import { dereference } from '@apidevtools/json-schema-ref-parser';

/** Deepest nesting of the dereferenced document kept; deeper is untyped JSON. */
const MAX_SCHEMA_DEPTH = 64;
/** Most objects, arrays and values of the dereferenced document (the bundled one has about 5,000). */
export const MAX_CONTRACT_NODES = 200_000;

/** An OpenAPI document, dereferenced and bounded: a finite tree of plain JSON. */
export interface ContractDocument {
  readonly openapi: string;
  readonly paths: { readonly [path: string]: unknown };
}

/** Why a document cannot be the contract in force. */
export class UnusableContractError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The target of a JSON pointer inside `root` (`#/components/schemas/A`), or undefined. */
function pointTo(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = /^\d+$/.test(key) ? node[Number(key)] : undefined;
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * A copy in which every `$ref` that does not point into the document is `{}`: the library
 * then has only internal pointers to follow, whatever its resolvers would do.
 */
function withInternalRefsOnly(node: Json, root: Json, depth: number): Json {
  if (depth > MAX_SCHEMA_DEPTH * 4) return {};
  if (Array.isArray(node)) return node.map((item) => withInternalRefsOnly(item, root, depth + 1));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string' && pointTo(root, node.$ref) === undefined) return {};
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, withInternalRefsOnly(value as Json, root, depth + 1)]),
  );
}

/**
 * How many nodes the document has once every `$ref` is replaced by its target, counted
 * without expanding anything (each target's size once), so a document whose references fan
 * out (each level naming the next twice) is refused before the library walks it: its walk
 * takes time in the expanded size. A `$ref` inside its own target's expansion counts one.
 */
function expandedSize(root: Json): number {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) return 1;
    open.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    let total = 1;
    if (typeof ref === 'string') total = size(pointTo(root, ref));
    else for (const child of Object.values(node)) if ((total += size(child)) > MAX_CONTRACT_NODES) break;
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  return size(root);
}

const tooLarge = () =>
  new UnusableContractError(`it dereferences to more than ${MAX_CONTRACT_NODES.toLocaleString('en-US')} nodes`);

/**
 * The dereferenced graph as a bounded tree: an object met again inside itself closes a cycle
 * and becomes `{}` there (the library links cycles back to the object), and so does a `$ref`
 * the library left in place.
 */
function boundedTree(node: unknown, depth: number, budget: { nodes: number }, ancestors: Set<object>): Json {
  budget.nodes -= 1;
  if (budget.nodes < 0) throw tooLarge();
  if (typeof node !== 'object' || node === null) return node as Json;
  if (depth >= MAX_SCHEMA_DEPTH || ancestors.has(node)) return Array.isArray(node) ? [] : {};
  if (!Array.isArray(node) && typeof (node as { $ref?: unknown }).$ref === 'string') return {};
  ancestors.add(node);
  const tree = Array.isArray(node)
    ? node.map((item) => boundedTree(item, depth + 1, budget, ancestors))
    : Object.fromEntries(
        Object.entries(node).map(([key, value]) => [key, boundedTree(value, depth + 1, budget, ancestors)]),
      );
  ancestors.delete(node);
  return tree;
}

/**
 * @param body the document as parsed JSON (not modified)
 * @throws UnusableContractError when it is not an OpenAPI 3.x document or is too large once dereferenced
 */
export async function readContractDocument(body: unknown): Promise<ContractDocument> {
  if (!isObject(body)) throw new UnusableContractError('it is not a JSON object');
  if (typeof body.openapi !== 'string' || !/^3\.\d+(?:\.\d+)?(?:-[\w.]+)?$/.test(body.openapi))
    throw new UnusableContractError(
      `it is not an OpenAPI 3.x document (openapi: ${body.openapi === undefined ? 'missing' : JSON.stringify(body.openapi).slice(0, 40)})`,
    );
  if (!isObject(body.paths)) throw new UnusableContractError('it has no paths object');
  const internal = withInternalRefsOnly(body as Json, body as Json, 0);
  if (expandedSize(internal) > MAX_CONTRACT_NODES) throw tooLarge();
  const dereferenced = await dereference(internal as Record<string, unknown>, {
    resolve: { external: false, file: false, http: false },
    dereference: { circular: true, maxDepth: MAX_SCHEMA_DEPTH * 4 },
  }).catch((error: unknown) => {
    throw new UnusableContractError(`its references cannot be followed (${(error as Error).message})`);
  });
  const tree = boundedTree(dereferenced, 0, { nodes: MAX_CONTRACT_NODES }, new Set()) as Record<string, Json>;
  return { openapi: body.openapi, paths: tree.paths as Record<string, Json> };
}
