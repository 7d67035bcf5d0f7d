/** The Website resource (spec 2.2) of one registry record at a given data time. */
import type { Website } from '../../../schemas/website.ts';
import { Rng } from '../prng.ts';
import { formatTimestamp } from '../timestamps.ts';
import { latestCommitted } from '../world/analysis-schedule.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';
import { brandFrom } from './brand.ts';
import { COUNTRIES, LANGUAGES, NICHES } from './text-fragments.ts';

export function websiteResource(seed: number, website: WebsiteRecord, nowMs: number): Website {
  const rng = Rng.of(seed, 'website', website.id);
  const latest = latestCommitted(website, nowMs);
  return {
    id: website.id,
    domain_url: brandFrom(rng, seed, website).domainUrl,
    country: rng.pick(COUNTRIES),
    language: rng.chance(0.2) ? null : rng.pick(LANGUAGES),
    industry_niche: rng.chance(0.25) ? null : rng.pick(NICHES),
    last_analysis_at: latest ? formatTimestamp(latest.asOfMs) : null,
  };
}
