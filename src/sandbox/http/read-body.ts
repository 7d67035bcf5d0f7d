/** Reads a request body up to a byte limit (413 `payload_too_large` beyond it). */
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.ts';

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ApiError('payload_too_large', `The request body exceeds ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A JSON body, or 400 `invalid_request` saying it is not JSON. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = (await readBody(req, maxBytes)).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      'invalid_request',
      `The request body is not valid JSON: ${(error as Error).message}`.slice(0, 1024),
    );
  }
}
