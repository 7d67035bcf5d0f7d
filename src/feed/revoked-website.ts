/**
 * "Revoked or deleted websites disappear immediately, including from scans in progress"
 * (spec 1). A listed website whose feed answers 404 is asked for once more
 * (`GET /websites/{id}`): a 404 there too confirms it is gone, so the run marks it removed
 * instead of counting a failure. Any other answer leaves the feed's 404 a failure.
 */
import { websiteSchema } from '../../schemas/index.ts';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import { websitesStream } from '../streams/index.ts';

export async function isRevoked(client: ApiClient, websiteId: string, error: ApiError): Promise<boolean> {
  if (error.status !== 404) return false;
  try {
    await client.getResource(`${websitesStream.path}/${encodeURIComponent(websiteId)}`, {}, websiteSchema);
    return false;
  } catch (confirmation) {
    if (confirmation instanceof ApiError && confirmation.status === 404) return true;
    return false;
  }
}
