/** Test helper: one real HTTP request to a sandbox over loopback (undici), body parsed. */
import { request } from 'undici';
import type { Sandbox } from '../../src/sandbox/index.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** GET (or `method`) `path` with `key` as bearer (null = no Authorization header). */
export async function call(
  sandbox: Sandbox,
  path: string,
  key: string | null = sandbox.apiKey,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'GET',
  json?: unknown,
  signal?: AbortSignal,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${sandbox.baseUrl}${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
    signal,
  });
  const text = await res.body.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, body };
}

/** Every row of a feed or listing, following cursors (from `startCursor` if given); also returns each page's meta. */
export async function walk(
  sandbox: Sandbox,
  path: string,
  key: string | null = sandbox.apiKey,
  startCursor: string | null = null,
) {
  const rows: any[] = [];
  const metas: any[] = [];
  let cursor: string | null = startCursor;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const answer = await call(sandbox, cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path, key);
    if (answer.status !== 200) throw new Error(`walk ${path}: ${answer.status} ${answer.text}`);
    rows.push(...answer.body.data);
    metas.push(answer.body.meta);
    cursor = answer.body.meta.next_cursor;
  } while (cursor !== null);
  return { rows, metas };
}
