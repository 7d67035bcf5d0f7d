/**
 * Who a website is: its brand name and host, both read off its `domain_url`, and the
 * competitors tracked for it. Snapshots, mentions and citations of the default data all
 * speak of these, so the numbers and the evidence tell one story.
 */
import { domainToUnicode } from 'node:url';
import { Rng } from '../prng.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';
import { COMPETITOR_DOMAINS, DOMAIN_WORDS } from './text-fragments.ts';

/** A competitor as snapshots (`competitor_domain`), mentions (its name) and citations (its domain) show it. */
export interface Competitor {
  readonly domain: string;
  readonly name: string;
}

export interface Brand {
  /** The Website resource's `domain_url`, e.g. `https://www.northwind-3.example/`. */
  readonly domainUrl: string;
  /** Its host, where the brand's own cited pages live: `www.northwind-3.example`. */
  readonly host: string;
  /** How answers name the brand: `Northwind`. */
  readonly name: string;
  /** The competitors tracked for the website (two to four), the same in every analysis. */
  readonly competitors: readonly Competitor[];
}

/** `adventure-works` -> `Adventure Works`; an IDN label is read in Unicode first. */
function nameOf(label: string): string {
  return domainToUnicode(label)
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * The brand of a website, taking the first draw of `rng` (the Website resource's own
 * generator, which goes on to draw its other fields).
 */
export function brandFrom(rng: Rng, seed: number, website: WebsiteRecord): Brand {
  const word = rng.pick(DOMAIN_WORDS);
  const host = `www.${word}-${website.seq}.example`;
  const pick = Rng.of(seed, 'competitors', website.id);
  const first = pick.int(0, COMPETITOR_DOMAINS.length - 1);
  const competitors = Array.from({ length: pick.int(2, 4) }, (_, i) => {
    const domain = COMPETITOR_DOMAINS[(first + i) % COMPETITOR_DOMAINS.length]!;
    return { domain, name: nameOf(domain.slice(0, domain.indexOf('.'))) };
  });
  return { domainUrl: `https://${host}/`, host, name: nameOf(word), competitors };
}

export function brandOf(seed: number, website: WebsiteRecord): Brand {
  return brandFrom(Rng.of(seed, 'website', website.id), seed, website);
}
