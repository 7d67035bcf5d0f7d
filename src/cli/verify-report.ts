/**
 * What `aivis verify` prints on stdout: a line per website verified (its window, rows on each
 * side, missing and extra counts), the ids behind the counts (at most `MAX_LISTED_IDS` each),
 * the websites it could not verify or read, and a total. docs/operations.md#verify says how to read it.
 */
import type { VerifiedWebsite, VerifyReport } from '../verify/verify-stream.ts';

function idList(kind: 'missing' | 'extra', count: number, ids: readonly string[]): string[] {
  if (count === 0) return [];
  const more = count - ids.length;
  return [`    ${kind}: ${ids.join(' ')}${more > 0 ? ` (and ${more} more)` : ''}`];
}

function websiteLines(website: VerifiedWebsite, repair: boolean): string[] {
  const counts = [
    `api ${website.api_rows}`,
    `destination ${website.destination_rows}`,
    `missing ${website.missing}`,
    `extra ${website.extra}`,
    ...(repair ? [`repaired ${website.repaired}`] : []),
    ...(website.unstamped > 0 ? [`without available_at ${website.unstamped}`] : []),
  ];
  return [
    `  ${website.website_id} ${website.since} .. ${website.until}: ${counts.join(', ')}`,
    ...idList('missing', website.missing, website.missing_ids),
    ...idList('extra', website.extra, website.extra_ids),
  ];
}

export function formatVerifyReport(report: VerifyReport, repair: boolean): string {
  const failed = report.failed.length;
  const never = report.never_synced.length;
  // "equal" only about something compared: nothing verified is said as such.
  const compared = report.websites.length === 0 ? 'nothing verified' : report.equal ? 'equal' : 'differences found';
  const verdict = [
    compared,
    ...(failed > 0 ? [`${failed} website${failed === 1 ? '' : 's'} could not be read`] : []),
    ...(never > 0 ? [`${never} website${never === 1 ? '' : 's'} in scope never synced`] : []),
  ].join('; ');
  const total = [
    `${report.websites.length} website${report.websites.length === 1 ? '' : 's'} verified`,
    ...(report.skipped.length > 0 ? [`${report.skipped.length} not verified`] : []),
    ...(failed > 0 ? [`${failed} failed`] : []),
    `${report.missing} missing`,
    `${report.extra} extra`,
    ...(repair ? [`${report.repaired} repaired`] : []),
  ];
  return [
    `aivis verify ${report.stream}: ${verdict}`,
    ...report.websites.flatMap((website) => websiteLines(website, repair)),
    ...report.skipped.map((s) => `  ${s.website_id} not verified: ${s.reason}`),
    ...report.failed.map((f) => `  ${f.website_id} failed: ${f.error}`),
    `  total: ${total.join(', ')}`,
  ].join('\n');
}
