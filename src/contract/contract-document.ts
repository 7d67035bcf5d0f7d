/**
 * A contract document made safe to read (docs/served-contract.md#what-is-read): every `$ref`
 * that points inside the document is replaced by what it points to, by
 * `@apidevtools/json-schema-ref-parser` with every resolver off, so nothing outside the
 * document is ever read: no file, no URL. What cannot be followed inside the document (a
 * `$ref` to a file or URL, a pointer to nothing, a cycle, nesting past `MAX_SCHEMA_DEPTH`)
 * becomes `{}`, untyped JSON. A document that dereferences to more than `MAX_CONTRACT_NODES`
 * nodes (references that fan out) is refused rather than expanded.
 */
import { dereference } from '@apidevtools/json-schema-ref-parser';

/** Deepest nesting of the dereferenced document kept; deeper is untyped JSON. */
export const MAX_SCHEMA_DEPTH = 64;
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

/** The dereferenced graph (shared and cut-off `$ref`s) as a bounded tree. */
function boundedTree(node: unknown, depth: number, budget: { nodes: number }): Json {
  budget.nodes -= 1;
  if (budget.nodes < 0)
    throw new UnusableContractError(`it dereferences to more than ${MAX_CONTRACT_NODES.toLocaleString('en-US')} nodes`);
  if (Array.isArray(node))
    return depth >= MAX_SCHEMA_DEPTH ? [] : node.map((item) => boundedTree(item, depth + 1, budget));
  if (!isObject(node)) return node as Json;
  // A `$ref` left after dereferencing closes a cycle: the library leaves it in place.
  if (depth >= MAX_SCHEMA_DEPTH || typeof node.$ref === 'string') return {};
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, boundedTree(value, depth + 1, budget)]));
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
  const dereferenced = await dereference(internal as Record<string, unknown>, {
    resolve: { external: false, file: false, http: false },
    dereference: { circular: 'ignore', maxDepth: MAX_SCHEMA_DEPTH * 4 },
  }).catch((error: unknown) => {
    throw new UnusableContractError(`its references cannot be followed (${(error as Error).message})`);
  });
  const tree = boundedTree(dereferenced, 0, { nodes: MAX_CONTRACT_NODES }) as Record<string, Json>;
  return { openapi: body.openapi, paths: tree.paths as Record<string, Json> };
}
