/**
 * The `malformed_record` fault: a successful reply whose first record breaks the contract
 * (e.g. `sentiment: 250`), so clients prove they reject that one record and keep the rest.
 */
import type { FaultProfile } from './fault-injector.ts';
import type { Reply } from './reply.ts';

export function withMalformedRecord(reply: Reply, fault: FaultProfile): Reply {
  const body = reply.body as { data?: unknown; meta?: unknown };
  if (reply.status !== 200 || body.data === null || typeof body.data !== 'object') return reply;
  const data = structuredClone(body.data) as Record<string, unknown> | Record<string, unknown>[];
  const record = Array.isArray(data) ? data[0] : data;
  if (record === undefined) return reply;
  const path = (fault.field ?? '').split('.');
  let target: Record<string, unknown> = record;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    target = (target[key] = next !== null && typeof next === 'object' ? next : {}) as Record<string, unknown>;
  }
  target[path.at(-1)!] = fault.value ?? null;
  return { ...reply, body: { ...body, data } };
}
