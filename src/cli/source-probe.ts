/**
 * The source side of `aivis check` and of the protocols' `check`: one listing request with the
 * workspace's key proves the API answers, V2 is enabled and the key may read. A check answers
 * quickly: one retry for a blip, not the sync's patient backoff.
 */
import type { ApiClient } from '../client/api-client.ts';
import type { Workspace } from '../config/workspaces.ts';
import type { Logger } from '../log/logger.ts';
import { createClient } from './command-resources.ts';

/** The workspace's client as a check uses it: at most one retry. The caller closes it. */
export function checkClient(workspace: Workspace, logger: Logger): ApiClient {
  const { source } = workspace;
  return createClient({ ...workspace, source: { ...source, max_retries: Math.min(source.max_retries, 1) } }, logger);
}

/** What the probe proved; throws the API's error (its message says what to fix) otherwise. */
export async function probeSource(client: ApiClient): Promise<string> {
  const response = await client.request({ method: 'GET', path: '/public/v2/websites', query: { limit: '1' } });
  const listed = (response.body as { data?: unknown[] }).data?.length ?? 0;
  return `key accepted, V2 enabled, read scope granted (${listed > 0 ? 'websites visible' : 'no websites yet'})`;
}
