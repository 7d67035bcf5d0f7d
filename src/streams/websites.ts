import { STREAM_OPTIONS } from '../../schemas/streams-config.ts';
import { websiteSchema } from '../../schemas/index.ts';
import { websitesTable } from '../tables/index.ts';
import { listingStream, loadColumns } from './stream.ts';

/** The full website listing, read every run (no `updated_since` exists for it). */
export const websitesStream = listingStream({
  kind: 'listing',
  name: 'websites',
  options: STREAM_OPTIONS.websites,
  table: websitesTable,
  path: '/public/v2/websites',
  recordSchema: websiteSchema,
  mappings: [
    {
      table: websitesTable,
      rawPath: [],
      mapped: ['id', 'domain_url', 'country', 'language', 'industry_niche', 'last_analysis_at'],
      keyed: {},
    },
  ],
  /** `_first_seen_at` is insert-only; `_removed_at: null` clears a removal when a website returns. */
  toRow(website, raw, context) {
    return {
      id: website.id,
      domain_url: website.domain_url,
      country: website.country,
      language: website.language,
      industry_niche: website.industry_niche,
      last_analysis_at: website.last_analysis_at,
      _first_seen_at: context.syncedAt,
      _removed_at: null,
      ...loadColumns(websitesTable, raw, context),
    };
  },
});
