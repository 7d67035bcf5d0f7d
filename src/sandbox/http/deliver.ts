/**
 * Writes a reply to the socket, honestly or through a body fault (slow, truncated, or a duplicated `has_more`). Every
 * response carries `X-Request-Id` beside `meta.request_id`.
 */
import type { ServerResponse } from 'node:http';
import type { FaultProfile } from './fault-injector.ts';
import { type Reply, serialize } from './reply.ts';
import { withDuplicateMetaKeys } from './scan-faults.ts';

/** @param rewrite the body text changed once written (`escaped_key` writes the key in escapes) */
export function deliver(
  res: ServerResponse,
  reply: Reply,
  requestId: string,
  fault?: FaultProfile,
  rewrite: (text: string) => string = (text) => text,
): void {
  const text = rewrite(serialize(reply, requestId));
  const bytes = Buffer.from(fault?.kind === 'duplicate_meta_keys' ? withDuplicateMetaKeys(text) : text, 'utf8');
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(bytes.length),
    'X-Request-Id': requestId,
    ...reply.headers,
  });
  if (fault?.kind === 'truncated_body') {
    // Full Content-Length, half the bytes, then close: the client sees a body cut short.
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
    return;
  }
  if (fault?.kind === 'slow_body') {
    const pieces = Math.max(1, fault.chunks ?? 4);
    const size = Math.ceil(bytes.length / pieces);
    const send = (i: number) => {
      if (res.destroyed) return;
      const piece = bytes.subarray(i * size, (i + 1) * size);
      if (i + 1 >= pieces) res.end(piece);
      else {
        res.write(piece);
        setTimeout(() => send(i + 1), fault.chunkDelayMs ?? 200);
      }
    };
    send(0);
    return;
  }
  res.end(bytes);
}
