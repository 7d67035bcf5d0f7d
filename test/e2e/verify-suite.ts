/**
 * `aivis verify` end to end, run by every destination that takes hand-written SQL: sync from
 * the sandbox, damage the destination by hand, then verify finds exactly the damage and
 * `--repair` restores the sandbox's truth without touching saved state.
 */
import { BUNDLED_VALIDATION } from '../../src/contract/contract-validation.ts';
import { readContractInForce } from '../../src/contract/run-contract.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { declaredIn } from '../../src/evolution/evolution-plan.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.ts';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import { mentionsStream } from '../../src/streams/index.ts';
import { mentionsTable, stateTable } from '../../src/tables/index.ts';
import { verifyExitCode } from '../../src/verify/verify-comparison.ts';
import type { RequestEstimate } from '../../src/verify/verify-estimate.ts';
import { type VerifyOptions, verifyStream } from '../../src/verify/verify-stream.ts';
import type { HandWrittenSql } from '../support/targets/postgres-target.ts';
import { openWorld, SANDBOX, type SyncTarget, testConfig } from './sync-suite.ts';

const SINCE = '2020-01-01T00:00:00Z';

export function runVerifySuite(target: SyncTarget & HandWrittenSql): void {
  describe(`aivis verify against ${target.name}`, () => {
    let world: Awaited<ReturnType<typeof openWorld>>;
    beforeEach(async () => {
      world = await openWorld(target);
    });
    afterEach(async () => {
      await world.close();
    });

    /** `served`: under the sandbox's served contract, read as `aivis verify` reads it; else the bundled one. */
    const verify = async (options: Partial<VerifyOptions['mode']> = {}, { served = false } = {}) => {
      const config = testConfig(world.sandbox);
      const client = new ApiClient({
        baseUrl: world.sandbox.baseUrl,
        apiKey: world.sandbox.apiKey,
        requestsPerMinute: 6000,
        random: () => 0,
      });
      let estimate: RequestEstimate | undefined;
      const before = world.sandbox.stats.requests;
      try {
        const contract = served
          ? await readContractInForce({
              client,
              destination: world.destination,
              workspace: 'default',
              runId: 'run_verify',
              now: new Date().toISOString(),
              logger: silentLogger,
            })
          : undefined;
        const report = await verifyStream({
          config,
          client,
          destination: world.destination,
          stateStore: new DestinationStateStore(world.destination),
          logger: silentLogger,
          workspace: 'default',
          stream: mentionsStream,
          validation: contract?.validation ?? BUNDLED_VALIDATION,
          ...(contract ? { declared: declaredIn(contract.document) } : {}),
          mode: { kind: 'verify', since: SINCE, repair: false, ...options },
          runId: 'run_verify',
          now: () => new Date(),
          onEstimate: (e) => (estimate = e),
        });
        return { report, estimate: estimate!, requests: world.sandbox.stats.requests - before };
      } finally {
        await client.close();
      }
    };
    const mentions = () => target.qualifiedName(world.schema, mentionsTable.name);
    /** The earliest-published mentions of the first website: well inside the closed window. */
    const earliestMentions = async (count: number) => {
      const [website] = world.sandbox.truth.websites() as { id: string }[];
      const rows = (await world.rows(mentionsTable)).filter((r) => r.website_id === website!.id);
      rows.sort(
        (a, b) =>
          String(a.available_at).localeCompare(String(b.available_at)) || String(a.id).localeCompare(String(b.id)),
      );
      return {
        website: website!.id,
        ids: rows
          .slice(0, count)
          .map((r) => String(r.id))
          .sort(),
      };
    };

    it('finds mentions deleted by hand; --repair restores the truth with state unchanged; then all is equal', async () => {
      expect((await world.sync()).exitCode).toBe(0);
      const { website, ids } = await earliestMentions(3);
      await target.execute(
        world.schema,
        `DELETE FROM ${mentions()} WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')})`,
      );
      const state = await world.rows(stateTable);

      const found = await verify();
      expect(verifyExitCode(found.report)).toBe(3);
      expect([found.report.missing, found.report.extra, found.report.equal]).toEqual([3, 0, false]);
      const damaged = found.report.websites.find((w) => w.website_id === website)!;
      expect(damaged).toMatchObject({ missing: 3, missing_ids: ids, extra: 0, extra_ids: [], repaired: 0 });
      expect(damaged.api_rows - damaged.destination_rows).toBe(3);
      for (const other of found.report.websites.filter((w) => w.website_id !== website))
        expect([other.missing, other.extra]).toEqual([0, 0]);
      // Every listed website was verified, each up to its own frontier.
      expect(found.report.websites).toHaveLength(world.sandbox.truth.websites().length);
      const frontiers = new Map(state.map((s) => [s.scope, (s.state as { frontier: string }).frontier]));
      for (const w of found.report.websites)
        expect([w.since, w.until]).toEqual([
          microsecondTimestamp(SINCE),
          microsecondTimestamp(frontiers.get(w.website_id)!),
        ]);
      // The estimate printed before reading is what the reads cost: the listing page, then each website's pages.
      expect(found.estimate.requests).toBe(found.requests);

      const repaired = await verify({ repair: true });
      expect(verifyExitCode(repaired.report)).toBe(3);
      expect(repaired.report.repaired).toBe(3);
      expect(repaired.report.websites.find((w) => w.website_id === website)).toMatchObject({
        missing: 3,
        missing_ids: ids,
        repaired: 3,
      });
      await world.expectTruth();
      expect(await world.rows(stateTable)).toEqual(state);

      const again = await verify();
      expect([again.report.equal, again.report.missing, again.report.extra, verifyExitCode(again.report)]).toEqual([
        true,
        0,
        0,
        0,
      ]);
    });

    it('--repair under a contract that changed a type writes what a sync writes: the variant column, the old one NULL', async () => {
      await world.close();
      world = await openWorld(target, { ...SANDBOX, mentionsPerAnalysis: 20, variants: ['contract_type_change'] });
      expect((await world.sync()).exitCode).toBe(0);
      const evolved: TableSpec = {
        ...mentionsTable,
        columns: [
          ...mentionsTable.columns,
          { name: 'position_in_response__float64', type: 'float64', nullable: true, description: '' },
        ],
      };
      const synced = await world.rows(evolved);
      const { ids } = await earliestMentions(3);
      await target.execute(
        world.schema,
        `DELETE FROM ${mentions()} WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')})`,
      );
      const { report } = await verify({ repair: true }, { served: true });
      expect([report.missing, report.repaired]).toEqual([3, 3]);
      // The repaired rows are the synced ones but for the run that wrote them.
      const theirs = ({ _run_id, _synced_at, ...row }: Record<string, unknown>) => row;
      const repaired = (await world.rows(evolved)).filter((row) => ids.includes(String(row.id)));
      expect(repaired.map(theirs)).toEqual(synced.filter((row) => ids.includes(String(row.id))).map(theirs));
      for (const row of repaired)
        expect([row.position_in_response, row.position_in_response__float64]).toEqual([
          null,
          (row._raw as { position_in_response: number | null }).position_in_response,
        ]);
    });

    it('reports a row inserted by hand as extra, and --repair leaves it (and state) alone', async () => {
      await world.sync();
      const { website, ids } = await earliestMentions(1);
      const [row] = (await world.rows(mentionsTable)).filter((r) => r.id === ids[0]);
      const json = target.json ?? ((text: string) => `'${text}'`);
      const stamp = target.timestamp ?? ((text: string) => `'${text}'`);
      const values = [
        "'men_by_hand'",
        `'${website}'`,
        `'${row!.analysis_id}'`,
        stamp(String(row!.observed_at)),
        stamp(String(row!.available_at)),
        "'gemini'",
        "'typed in'",
        'false',
        json('[]'),
        stamp(String(row!.available_at)),
        "'run_hand'",
        json('{}'),
      ].join(', ');
      await target.execute(
        world.schema,
        `INSERT INTO ${mentions()} (id, website_id, analysis_id, observed_at, available_at, provider, sentence_text, sentence_text_truncated, mention_spans, _synced_at, _run_id, _raw)
         ${target.insertBySelect ? `SELECT ${values}` : `VALUES (${values})`}`,
      );
      const state = await world.rows(stateTable);

      for (const repair of [false, true]) {
        const { report } = await verify({ repair });
        expect(verifyExitCode(report)).toBe(3);
        expect([report.missing, report.extra, report.repaired]).toEqual([0, 1, 0]);
        expect(report.websites.find((w) => w.website_id === website)).toMatchObject({
          extra: 1,
          extra_ids: ['men_by_hand'],
          missing_ids: [],
        });
      }
      expect((await world.rows(mentionsTable)).filter((r) => r.id === 'men_by_hand')).toHaveLength(1);
      expect(await world.rows(stateTable)).toEqual(state);
    });

    it('verifies only up to --until and only the websites named', async () => {
      await world.sync();
      const { website, ids } = await earliestMentions(1);
      const [row] = (await world.rows(mentionsTable)).filter((r) => r.id === ids[0]);
      await target.execute(world.schema, `DELETE FROM ${mentions()} WHERE id = '${ids[0]}'`);
      const before = String(row!.available_at);
      // A window that ends just before the deleted row is equal; one that holds it is not.
      const earlier = new Date(Date.parse(before) - 1).toISOString();
      const clean = await verify({ until: earlier, websites: [website] });
      expect(clean.report.websites.map((w) => [w.website_id, w.until, w.missing])).toEqual([
        [website, microsecondTimestamp(earlier), 0],
      ]);
      expect(clean.report.equal).toBe(true);
      const holds = await verify({ until: before, websites: [website] });
      expect(holds.report.websites.map((w) => [w.website_id, w.missing_ids])).toEqual([[website, ids]]);
    });
  });
}
