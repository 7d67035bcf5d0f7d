/**
 * Authentication and authorization of spec part 5: a missing or unknown key is 401; a known
 * key of a workspace without V2, or without the route's scope or eligibility, is 403.
 * Messages say what to fix and never echo the key.
 */
import type { IncomingMessage } from 'node:http';
import type { Access } from '../router.ts';
import type { SandboxStats } from '../sandbox-stats.ts';
import type { ApiKeyModel, KeyRegistry } from '../world/api-keys.ts';
import { ApiError } from './api-error.ts';
import type { RateLimiter } from './rate-limiter.ts';

/** What the gate of a request consults. */
export interface GateParts {
  keys: KeyRegistry;
  limiter: RateLimiter;
  stats: SandboxStats;
}

/**
 * Lets a request through to its route or throws the error envelope's cause, in the order a
 * client can act on: 401 (who are you), 429 (the workspace budget, counted for every
 * authenticated call), 403 (what this key may do). Returns the key, or null for the
 * admin routes, which need none.
 */
export function passGate(access: Access, req: IncomingMessage, parts: GateParts): ApiKeyModel | null {
  if (access === 'admin') {
    if (!isLoopback(req.socket.remoteAddress))
      throw new ApiError('forbidden', 'The sandbox control surface answers loopback callers only.');
    return null;
  }
  const key = authenticate(req, parts.keys);
  const admission = parts.limiter.admit(key.workspaceId);
  if (!admission.ok) {
    parts.stats.throttled++;
    throw new ApiError(
      'rate_limited',
      `Rate limit exceeded for this workspace; retry after ${admission.retryAfterSeconds} s.`,
      {
        headers: { 'Retry-After': String(admission.retryAfterSeconds) },
      },
    );
  }
  authorize(access, key, parts.keys);
  return key;
}

function isLoopback(address: string | undefined): boolean {
  return address === '::1' || address?.startsWith('127.') === true || address?.startsWith('::ffff:127.') === true;
}

export function authenticate(req: IncomingMessage, keys: KeyRegistry): ApiKeyModel {
  const header = req.headers.authorization;
  if (!header) throw new ApiError('unauthorized', 'Missing API key: send the header Authorization: Bearer <API_KEY>.');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match ? keys.lookup(match[1]!) : undefined;
  if (!key)
    throw new ApiError('unauthorized', 'Invalid API key: the Authorization header does not carry a known bearer key.');
  return key;
}

export function authorize(access: Access, key: ApiKeyModel, keys: KeyRegistry): void {
  if (!keys.workspace(key.workspaceId).v2Enabled) {
    throw new ApiError(
      'forbidden',
      'Public API V2 is not enabled for this workspace; it is enabled per workspace on request.',
    );
  }
  if (access === 'read' && !key.scopes.includes('read')) {
    throw new ApiError('forbidden', 'This API key lacks the read scope; use a key with read scope.');
  }
  if (access === 'prompts_write') {
    if (!key.scopes.includes('prompts_write'))
      throw new ApiError('forbidden', 'This API key lacks the prompts_write scope.');
    if (!key.v2Eligible) {
      throw new ApiError(
        'forbidden',
        'This API key is not V2-eligible; a workspace owner must adopt or rotate it into a V2 integration lineage.',
      );
    }
    if (!key.ownerIssued) throw new ApiError('forbidden', 'Prompt imports need a key issued by a workspace owner.');
  }
}
