/**
 * Rows are typed by their table spec (`RowOf`): a stream that misspells or forgets a column
 * does not compile. `npm run typecheck` checks the `@ts-expect-error` lines below; were the
 * rows untyped, those lines would compile and tsc would fail on the unused directives.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { citationSchema } from '../../schemas/index.ts';
import type { Row, RowOf } from '../../src/destination/table-spec.ts';
import { feedStream, loadColumns, UNFILTERED_SCAN } from '../../src/streams/stream.ts';
import { citationsTable, type websitesTable } from '../../src/tables/index.ts';

const context = { websiteId: 'web_1', runId: 'run_1', syncedAt: '2026-01-01T00:00:00Z', workspace: 'default' };

const citation: RowOf<typeof citationsTable> = {
  id: 'cit_1',
  website_id: 'web_1',
  analysis_id: null,
  provider: 'chatgpt',
  observed_at: null,
  available_at: null,
  ...loadColumns(citationsTable, {}, context),
};

describe('typed rows', () => {
  it('a typed row is a Row the destinations take', () => {
    const row: Row = citation;
    expect(row.id).toBe('cit_1');
  });

  it('refuses a misspelt column, a missing one, a wrong type and a NULL in a NOT NULL column', () => {
    const { provider: _provider, ...withoutProvider } = citation;
    // @ts-expect-error `provder` is not a column of citations
    const misspelt: RowOf<typeof citationsTable> = { ...withoutProvider, provder: 'chatgpt' };
    // @ts-expect-error `provider` is missing
    const missing: RowOf<typeof citationsTable> = withoutProvider;
    // @ts-expect-error `website_id` is NOT NULL
    const nullKey: RowOf<typeof citationsTable> = { ...citation, website_id: null };
    // @ts-expect-error `_removed_at` is a timestamp, not a boolean
    const wrongType: Partial<RowOf<typeof websitesTable>> = { _removed_at: true };
    expect([misspelt, missing, nullKey, wrongType]).toHaveLength(4);
  });

  it('refuses a stream whose rows misspell a column of its table', () => {
    const { analysis_id: _analysisId, ...withoutAnalysisId } = citation;
    const stream = feedStream({
      kind: 'feed',
      name: 'typo',
      options: z.strictObject({}),
      table: citationsTable,
      recordSchema: citationSchema,
      path: (websiteId) => `/public/v2/websites/${websiteId}/typo`,
      scans: () => [...UNFILTERED_SCAN],
      // @ts-expect-error `analysis` is not a column of citations, and `analysis_id` is missing
      toRow(_record, raw, rowContext) {
        return { ...withoutAnalysisId, analysis: null, ...loadColumns(citationsTable, raw, rowContext) };
      },
    });
    expect(stream.name).toBe('typo');
  });
});
