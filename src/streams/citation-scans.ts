/**
 * Citations are "scoped to a website and analysis" (spec 4.6), and the spec does not show
 * whether a scan may leave the analysis out. A server that refuses it (400 `invalid_request`
 * naming `analysis_id`) is read one scan per analysis instead: the ids come from the
 * website's history feed (read whole, ids only: a few per website, whatever streams run), and
 * each scan keeps its own state scope `<website_id>?analysis_id=<ana_...>`. An analysis whose
 * history point is not published yet has its citations read by the first run after it is.
 */
import { z } from 'zod';
import { analysisIdSchema } from '../../schemas/index.ts';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import { analyticsHistoryStream } from './analytics-history.ts';
import { type FeedScan, PAGE_LIMIT, type ScanFallback } from './stream.ts';

/** The citations stream's fallback: one scan per analysis once the API asks for `analysis_id`. */
export const perAnalysisScans: ScanFallback = {
  applies: needsAnalysisId,
  scans: scansPerAnalysis,
  notice: 'the API requires analysis_id for citations; reading them one scan per analysis',
};

/** The refusal that means "send analysis_id". */
function needsAnalysisId(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 400 &&
    error.code === 'invalid_request' &&
    (error.details.some((detail) => detail.field === 'analysis_id') || /\banalysis_id\b/.test(error.message))
  );
}

/** Only the id of a history point matters here; a point without a valid one is skipped (the history stream rejects it). */
const pointId = z.looseObject({ analysis_id: analysisIdSchema });

/** One citations scan per analysis of the website, in history order. */
async function scansPerAnalysis(client: ApiClient, websiteId: string): Promise<FeedScan[]> {
  const ids = new Set<string>();
  const pages = client.paginate({
    path: analyticsHistoryStream.path(websiteId),
    query: { limit: PAGE_LIMIT },
    recordSchema: pointId,
  });
  for await (const page of pages) {
    for (const record of page.records) if (record.ok) ids.add(record.value.analysis_id);
  }
  return [...ids].map((analysisId) => ({
    scopeSuffix: `?analysis_id=${analysisId}`,
    query: { analysis_id: analysisId },
  }));
}
