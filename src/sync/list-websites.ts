/**
 * Reads the complete website listing. It is the run's plan (which websites to sync) and the
 * basis of removal reconciliation, so it is read whole before anything is written: a run
 * whose listing fails part-way writes nothing and infers no removal.
 */
import type { Website } from '../../schemas/index.ts';
import type { ApiClient } from '../client/api-client.ts';
import { websitesStream } from '../streams/index.ts';
import { PAGE_LIMIT } from './scan-feed.ts';

export interface Listing {
  readonly websites: { readonly website: Website; readonly raw: unknown }[];
  readonly rejected: { readonly raw: unknown; readonly error: string }[];
  /** Every id the listing named, valid record or not: a listed website is never "removed". */
  readonly seenIds: ReadonlySet<string>;
}

export async function listWebsites(client: ApiClient): Promise<Listing> {
  const websites: Listing['websites'][number][] = [];
  const rejected: Listing['rejected'][number][] = [];
  const seenIds = new Set<string>();
  const pages = client.paginate({ path: websitesStream.path, query: { limit: PAGE_LIMIT }, recordSchema: websitesStream.recordSchema });
  for await (const page of pages) {
    for (const record of page.records) {
      const id = (record.raw as { id?: unknown } | null)?.id;
      if (typeof id === 'string') seenIds.add(id);
      if (record.ok) websites.push({ website: record.value, raw: record.raw });
      else rejected.push({ raw: record.raw, error: record.error });
    }
  }
  return { websites, rejected, seenIds };
}
