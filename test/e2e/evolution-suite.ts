/**
 * Schema evolution end to end (docs/served-contract.md#schema-evolution), on every destination: the sandbox
 * serves a contract that declares more than the bundled one (its served-contract variants) and
 * records that carry it; a sync reads that contract and gives the declared fields typed
 * columns, filled for the rows an earlier sync loaded and written for new ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ColumnSpec, TableSpec } from '../../src/destination/table-spec.ts';
import { NEW_REASON } from '../../src/sandbox/data/contract-records.ts';
import type { SandboxVariant } from '../../src/sandbox/index.ts';
import {
  analyticsCurrentView,
  analyticsHistoryTable,
  analyticsProvidersCurrentView,
  analyticsLatestTable,
  analyticsProvidersTable,
  citationsTable,
  mentionsTable,
  mentionsCurrentView,
  contractsTable,
  rejectedTable,
  runsTable,
} from '../../src/tables/index.ts';
import { openWorld, SANDBOX, type SyncTarget, testConfig } from './sync-suite.ts';
import { SYNC_MODE } from '../../src/run/run-mode.ts';

const column = (name: string, type: ColumnSpec['type']): ColumnSpec => ({
  name,
  type,
  nullable: true,
  description: '',
});

const withColumns = (table: TableSpec, ...columns: ColumnSpec[]): TableSpec => ({
  ...table,
  columns: [...table.columns, ...columns],
});

type Raw = Record<string, unknown>;

/** The changes `contract_citation_fields` makes: ten citation fields (test/contract/served-contract-cli.test.ts lists them). */
const CITATION_CHANGES = 10;
/** The changes `contract_new_reason` makes: the new value in the enum of 15 reason lists. */
const REASON_CHANGES = 15;
/** The website-level reason values the bundled contract declares, as a rejection lists them. */
const BUNDLED_REASONS =
  'no_finalized_analysis, no_eligible_responses, visibility_facts_unavailable, no_tracked_mentions, sov_facts_unavailable, no_scored_responses, sentiment_scoring_failed, sentiment_evidence_unavailable, no_competitive_citations, citation_extraction_failed, citation_evidence_unavailable, no_brand_mentions, mention_position_evidence_unavailable';

export function runEvolutionSuite(target: SyncTarget): void {
  describe(`schema evolution end to end on ${target.name}`, () => {
    let world: Awaited<ReturnType<typeof openWorld>> | undefined;
    // Fewer mentions than the sync suite's: each test syncs twice, and the columns are what is checked.
    const open = async (...variants: SandboxVariant[]) =>
      (world = await openWorld(target, { ...SANDBOX, mentionsPerAnalysis: 20, variants }));
    afterEach(async () => {
      await world?.close();
      world = undefined;
    });

    it('declared citation fields become typed columns equal to the records, rows loaded before included; freeze adds none', async () => {
      const w = await open('contract_citation_fields');
      const frozen = await w.sync({ config: testConfig(w.sandbox, { schema_evolution: 'freeze' }) });
      expect(frozen.exitCode).toBe(0);
      // Frozen, the drift is still reported: counted in the summary and _aivis_runs, the document kept.
      expect(frozen.counters.contractChanges).toBe(CITATION_CHANGES);
      expect(await w.rows(runsTable)).toMatchObject([{ counts: { contract_changes: CITATION_CHANGES } }]);
      const kept = await w.rows(contractsTable);
      expect(kept.map((row) => (row.changes as unknown[]).length)).toEqual([CITATION_CHANGES]);
      const columns = async () => [
        ...((await w.destination.columnTypes([citationsTable])).get('citations') ?? []).keys(),
      ];
      expect((await columns()).sort()).toEqual(citationsTable.columns.map((c) => c.name).sort());
      const before = await w.rows(citationsTable);
      expect(before.length).toBeGreaterThan(0);

      expect((await w.sync()).exitCode).toBe(0);
      expect(await columns()).toEqual([...citationsTable.columns.map((c) => c.name), 'url', 'domain', 'title', 'rank']);
      const table = withColumns(
        citationsTable,
        column('url', 'string'),
        column('domain', 'string'),
        column('title', 'string'),
        column('rank', 'int64'),
      );
      const typed = (row: Raw) => ({ id: row.id, url: row.url, domain: row.domain, title: row.title, rank: row.rank });
      const fromRaw = (row: Raw) => {
        const raw = row._raw as { url: string; domain: string; title: string | null; rank: number };
        return { id: row.id, url: raw.url, domain: raw.domain, title: raw.title, rank: BigInt(raw.rank) };
      };
      const filled = await w.rows(table);
      expect(filled).toHaveLength(before.length);
      expect(filled.map(typed)).toEqual(filled.map(fromRaw));
      expect(filled.some((row) => row.title === null)).toBe(true);

      // Rows the loader writes under the same contract hold the same values.
      expect((await w.sync({ mode: { ...SYNC_MODE, fullRefresh: true } })).exitCode).toBe(0);
      const rewritten = await w.rows(table);
      expect(rewritten).toHaveLength(before.length);
      expect(rewritten.map(typed)).toEqual(rewritten.map(fromRaw));
    });

    it('a new mention field and a new metric are columns of mentions and of the analytics tables', async () => {
      const w = await open('contract_new_mention_field', 'contract_new_metric');
      expect((await w.sync()).exitCode).toBe(0);
      expect(await w.rows(rejectedTable)).toEqual([]);
      const mentions = await w.rows(withColumns(mentionsTable, column('response_language', 'string')));
      expect(mentions.length).toBeGreaterThan(0);
      expect(mentions.map((r) => r.response_language)).toEqual(mentions.map((r) => (r._raw as Raw).response_language));
      const metric = (raw: Raw) => ((raw.metrics ?? (raw.data as Raw).metrics) as Raw).recommendation_rate;
      for (const table of [analyticsLatestTable, analyticsHistoryTable, analyticsProvidersTable]) {
        const rows = await w.rows(withColumns(table, column('recommendation_rate', 'float64')));
        expect(rows.length, table.name).toBeGreaterThan(0);
        expect(
          rows.map((r) => r.recommendation_rate),
          table.name,
        ).toEqual(rows.map((r) => metric(r._raw as Raw)));
        if (table === analyticsHistoryTable)
          expect(rows.some((r) => typeof r.recommendation_rate === 'number')).toBe(true);
      }
      // The views follow: their columns are their tables' as stored.
      const views = await w.destination.columnTypes(
        [analyticsCurrentView, analyticsProvidersCurrentView].map((view) => ({ ...view, primaryKey: [] })),
      );
      expect(views.get(analyticsCurrentView.name)?.get('recommendation_rate')).toBe('float64');
      expect(views.get(analyticsProvidersCurrentView.name)?.get('recommendation_rate')).toBe('float64');
    });

    it('a type the column cannot hold lands in <column>__<type>, filled for rows loaded frozen', async () => {
      const w = await open('contract_type_change');
      // Frozen, the int64 column keeps what it can hold: the served n + 0.5 are NULL there, never a failed load.
      expect((await w.sync({ config: testConfig(w.sandbox, { schema_evolution: 'freeze' }) })).exitCode).toBe(0);
      expect((await w.rows(mentionsTable)).every((row) => row.position_in_response === null)).toBe(true);
      // Evolved, the variant column is added and filled from _raw for the rows already there.
      expect((await w.sync()).exitCode).toBe(0);
      const rows = await w.rows(withColumns(mentionsTable, column('position_in_response__float64', 'float64')));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const position = (row._raw as { position_in_response: number | null }).position_in_response;
        expect(row.position_in_response).toBeNull();
        expect(row.position_in_response__float64).toBe(position);
      }
      expect(rows.some((row) => row.position_in_response__float64 !== null)).toBe(true);
      // The view shows one column with every value, typed to hold them all (docs/tables.md#type-changes).
      const named = { ...mentionsCurrentView, primaryKey: [...mentionsCurrentView.key] };
      const types = (await w.destination.columnTypes([named])).get(mentionsCurrentView.name)!;
      const view = { ...named, columns: named.columns.map((c) => ({ ...c, type: types.get(c.name) ?? c.type })) };
      expect(types.get('position_in_response')).toBe('float64');
      expect(types.has('position_in_response__float64')).toBe(false);
      const positions = new Map(rows.map((row) => [row.id, row.position_in_response__float64]));
      const shown = await w.rows(view);
      expect(shown.length).toBeGreaterThan(0);
      for (const row of shown) expect(row.position_in_response).toBe(positions.get(row.id));
      if (target.comments) {
        const comments = await target.comments(w.schema);
        const said = (table: string) =>
          comments.find((c) => c.table_name.toLowerCase() === table && c.column_name === 'position_in_response')
            ?.comment;
        expect(said('mentions')).toContain(
          'new values are in `position_in_response__float64` and this column holds only those a int64 keeps (NULL otherwise); the views show both as one column.',
        );
        expect(said('mentions_current')).toContain(
          'In this view: every value of `position_in_response` and `position_in_response__float64` together, as float64',
        );
      }
    });

    /** The history points the sandbox serves, and those among them that give the new reason value. */
    const historyPoints = (w: Awaited<ReturnType<typeof open>>) => {
      const points = w.sandbox.truth
        .websites()
        .flatMap((website) => [...w.sandbox.truth.history(website.id as string)]);
      return {
        all: points.length,
        paused: points.filter((point) => JSON.stringify(point).includes(NEW_REASON)).length,
      };
    };

    it('loads a reason value the served contract declares: exit 0, nothing rejected, the drift counted', async () => {
      const w = await open('contract_new_reason');
      const summary = await w.sync();
      expect(summary.exitCode).toBe(0);
      expect(summary.counters.rejected).toBe(0);
      expect(summary.counters.contractChanges).toBe(REASON_CHANGES);
      expect(await w.rows(rejectedTable)).toEqual([]);
      expect(await w.rows(runsTable)).toMatchObject([{ counts: { contract_changes: REASON_CHANGES } }]);
      const points = historyPoints(w);
      expect(points.paused).toBeGreaterThan(0);
      const rows = await w.rows(analyticsHistoryTable);
      expect(rows).toHaveLength(points.all);
      const paused = rows.filter((row) => (row.unavailable_reasons as Raw).sentiment === NEW_REASON);
      expect(paused).toHaveLength(points.paused);
      for (const row of paused) expect(row.sentiment).toBeNull();
    });

    it('rejects a reason value neither contract declares with exit 3, and loads the rest', async () => {
      const w = await open('undeclared_reason_value');
      const summary = await w.sync();
      expect(summary.exitCode).toBe(3);
      expect(summary.status).toBe('partial');
      expect(summary.counters.contractChanges).toBe(0);
      const points = historyPoints(w);
      const rejected = await w.rows(rejectedTable);
      expect(rejected).toHaveLength(points.paused);
      expect(summary.counters.rejected).toBe(points.paused);
      expect(new Set(rejected.map((row) => `${row.stream}: ${row.error}`))).toEqual(
        new Set([
          `analytics_history: meta.unavailable_reasons.sentiment: must be one of ${BUNDLED_REASONS} (got "${NEW_REASON}")`,
        ]),
      );
      expect(await w.rows(analyticsHistoryTable)).toHaveLength(points.all - points.paused);
    });
  });
}
