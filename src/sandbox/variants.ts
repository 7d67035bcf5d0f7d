/**
 * Variants: answers a spec-legal server may give where the spec leaves a choice open, or
 * values at the edges of what it allows (`edge_values`), that this sandbox does not give by
 * default. Each one is a switch (`startSandbox({ variants })`,
 * `aivis sandbox --variant NAME`), so a client can be proven against servers other than the
 * sandbox's own reading of the spec. `sandbox.truth` follows the variants that change data.
 */

import { closestMatch } from '../config/closest-match.ts';

/** Every variant with the one line `aivis sandbox --help` and docs/sandbox.md print for it. */
export const SANDBOX_VARIANTS = {
  timestamps_without_seconds:
    'every timestamp is written YYYY-MM-DDThh:mmZ (no seconds; data times are truncated to the minute)',
  nanosecond_timestamps:
    'every timestamp is written with nine fraction digits, the last six below the millisecond not zero',
  has_more_false_with_cursor:
    'the last page of every scan (listing and feeds) says has_more: false and still carries a next_cursor',
  citations_without_ids: 'citation records carry no id field',
  citations_require_analysis_id:
    'a citations scan without analysis_id is refused: 400 invalid_request, details naming analysis_id',
  receipts_with_extra_fields:
    "import receipts place what the spec does not show differently: provenance as a list under each item's classification, the classifier version in data.classifier, capacity counts in data.capacity, more fields on items, and the import fault quota_window_exhausted (an operation error code the spec does not list)",
  revoked_mid_scan:
    'the first website of the listing is revoked when its mentions scan asks for a second page: 404 for that page and every request about it from then on',
  edge_values:
    'values at the edges of what the spec allows instead of data that adds up: counts unrelated to each other and to the metrics, some null, some beyond 2^32, up to 2^53-1; positions up to 2^53-1; mention spans anywhere; odd text (right-to-left, CJK, emoji sequences, combining marks, tabs, backslashes, newlines); citations under a domain made of the website id',
  deep_records:
    'the first mention of every analysis, and the second website of the sandbox in the listing, carry a field extensions nested 5,000 levels deep',
  contract_citation_fields:
    'the served contract declares citation fields (id, url, domain, title, rank and the evidence stamps) and every citation carries a rank',
  contract_new_mention_field: 'the served contract declares the mention field response_language and mentions carry it',
  contract_new_metric:
    'the served contract declares the metric recommendation_rate (metrics, reason keys, definition versions); snapshots and history points carry it, null with a reason on odd analyses',
  contract_new_reason:
    'the served contract declares the reason value sentiment_sampling_paused; even analyses give it for a null sentiment',
  undeclared_reason_value:
    'even analyses give the reason value sentiment_sampling_paused for a null sentiment, which the served contract does not declare',
  contract_type_change:
    'the served contract declares mention position_in_response a number; positions are served as n + 0.5',
  contract_drops_paging: "the served contract's list meta no longer declares next_cursor",
  contract_unavailable: 'GET /public/v2/openapi.json answers 500 internal_error',
  contract_truncated: 'the served contract is cut off halfway (not JSON)',
  contract_not_openapi: 'the served contract is a Swagger 2.0 document (no openapi field)',
  contract_missing_paths: 'the served contract lacks the mentions path',
  contract_external_ref: 'the served contract points mention fields at a $ref on another host and at a file:// $ref',
  contract_ref_cycle: 'the served contract points a mention field at a $ref cycle',
  contract_huge: 'the served contract is over 10 MiB',
  contract_bad_pointer: 'the served contract points a mention field at the broken JSON pointer #/components/%E0%A4%A',
  contract_ref_chain: 'the served contract points a mention field at a chain of 10,000 $refs',
  contract_deep_nesting: 'the served contract declares a mention field nested 3,000 levels deep',
  contract_repeated_description:
    'the served contract declares 300 citation fields that each $ref one schema with a 3 MB description',
} as const;

export type SandboxVariant = keyof typeof SANDBOX_VARIANTS;

export const VARIANT_NAMES = Object.keys(SANDBOX_VARIANTS) as SandboxVariant[];

/** The variants a caller asked for, or a RangeError naming the unknown one and the known ones. */
export function checkVariants(names: readonly string[] | undefined): ReadonlySet<SandboxVariant> {
  for (const name of names ?? []) {
    if (name in SANDBOX_VARIANTS) continue;
    const closest = closestMatch(name, VARIANT_NAMES);
    throw new RangeError(
      `unknown sandbox variant "${name}"${closest ? `, did you mean ${closest}?` : ''} (variants: ${VARIANT_NAMES.join(', ')})`,
    );
  }
  return new Set((names ?? []) as SandboxVariant[]);
}
