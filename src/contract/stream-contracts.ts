/**
 * Where each stream's records sit in a contract document: the path aivis reads, its GET's 200
 * `application/json` response, `data` (an array of records for a list, one record for a
 * snapshot) and `meta`. Only paths and these response shapes are relied on, never component
 * names (docs/served-contract.md#what-is-read).
 */
import { STREAMS, type StreamName } from '../streams/registry.ts';
import type { ContractDocument } from './contract-document.ts';
import { keywords, subschema, subschemas, type JsonSchema } from './json-schema.ts';

/** The path template of a stream, as the contract names it (`/public/v2/websites/{website_id}/mentions`). */
export const STREAM_PATHS: Readonly<Record<StreamName, string>> = Object.fromEntries(
  STREAMS.map((stream) => [
    stream.name,
    typeof stream.path === 'string' ? stream.path : decodeURIComponent(stream.path('{website_id}')),
  ]),
) as Record<StreamName, string>;

/** Whether a stream's `data` is a list of records (listings and feeds) rather than one record (the snapshot). */
export const LIST_STREAMS: ReadonlySet<StreamName> = new Set(
  STREAMS.filter((stream) => stream.kind !== 'snapshot').map((stream) => stream.name),
);

/** The schema of the 200 JSON body of GET `path`, or undefined when the document does not declare one. */
export function responseSchema(document: ContractDocument, path: string): JsonSchema | undefined {
  const get = keywords(keywords(document.paths[path] as JsonSchema).get as JsonSchema);
  const responses = keywords(get.responses as JsonSchema);
  const ok = keywords((responses['200'] ?? responses['2XX']) as JsonSchema);
  const content = keywords(ok.content as JsonSchema);
  const json = Object.entries(content).find(([type]) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type))?.[1];
  return json === undefined ? undefined : subschema(json as JsonSchema, 'schema');
}

/**
 * The schema of a property of an object schema, looking through `allOf` (and through an
 * `anyOf`/`oneOf` whose members are that object or null).
 */
export function propertySchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  const own = subschema(subschema(schema, 'properties'), name);
  if (own !== undefined) return own;
  for (const member of [
    ...subschemas(schema, 'allOf'),
    ...subschemas(schema, 'anyOf'),
    ...subschemas(schema, 'oneOf'),
  ]) {
    const found = propertySchema(member, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The schema of one record of a stream, or undefined when the document does not declare one. */
export function recordSchema(document: ContractDocument, stream: StreamName): JsonSchema | undefined {
  const data = propertySchema(responseSchema(document, STREAM_PATHS[stream]), 'data');
  return LIST_STREAMS.has(stream) ? subschema(data, 'items') : data;
}

/** The schema of a stream's response `meta` (list paging, or the snapshot's version tags). */
export function metaSchema(document: ContractDocument, stream: StreamName): JsonSchema | undefined {
  return propertySchema(responseSchema(document, STREAM_PATHS[stream]), 'meta');
}

/**
 * Why a document cannot serve a sync, or undefined: each path aivis reads must have a 200
 * JSON response whose body has `data` (an array for lists) and `meta`.
 */
export function missingStreamShape(document: ContractDocument): string | undefined {
  for (const stream of STREAMS) {
    const path = STREAM_PATHS[stream.name];
    const body = responseSchema(document, path);
    if (body === undefined) return `it lacks GET ${path} with a 200 application/json response`;
    const data = propertySchema(body, 'data');
    if (data === undefined || propertySchema(body, 'meta') === undefined)
      return `its GET ${path} 200 response does not declare data and meta`;
    if (LIST_STREAMS.has(stream.name) && subschema(data, 'items') === undefined)
      return `its GET ${path} 200 response does not declare data as an array of records`;
  }
  return undefined;
}
