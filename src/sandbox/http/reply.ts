/**
 * What a route handler returns. The server adds `meta.request_id` to every enveloped body,
 * so no handler can forget it.
 */
import { serializeJson } from '../../json/serialize-json.ts';
import type { ApiError } from './api-error.ts';

/** A response before serialization. */
export interface Reply {
  status: number;
  /** `{ data, meta }` or `{ error, meta }`; any other JSON when `raw`. */
  body: unknown;
  headers?: Record<string, string>;
  /** true: serve `body` as is (the OpenAPI document), no envelope. */
  raw?: boolean;
  /** Served byte for byte instead of `body` (a truncated document). */
  text?: string;
}

/** `200 { data, meta }`; the request id is added by the server. */
export function ok(data: unknown, meta: Record<string, unknown> = {}, status = 200): Reply {
  return { status, body: { data, meta } };
}

export function errorReply(error: ApiError): Reply {
  const body = {
    code: error.code,
    message: error.message,
    ...(error.details?.length ? { details: error.details } : {}),
  };
  return { status: error.status, body: { error: body, meta: {} }, headers: error.headers };
}

/** Serializes a reply with `meta.request_id` as the first meta key. */
export function serialize(reply: Reply, requestId: string): string {
  if (reply.text !== undefined) return reply.text;
  if (reply.raw) return JSON.stringify(reply.body);
  const body = reply.body as { meta?: Record<string, unknown> };
  const enveloped = { ...body, meta: { request_id: requestId, ...body.meta } };
  try {
    return JSON.stringify(enveloped);
  } catch (error) {
    // A body too deep for V8's recursive serializer (the `deep_records` variant).
    if (!(error instanceof RangeError)) throw error;
    return serializeJson(enveloped);
  }
}
