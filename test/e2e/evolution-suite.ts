/**
 * Schema evolution end to end (docs/schema-evolution.md), on every destination: the sandbox's
 * citation records carry `url`, `domain` and `title`, which the bundled contract leaves
 * undeclared (spec 2.6 shows no citation fields); a document in force that declares them gives
 * them typed columns, filled for the rows an earlier sync loaded and written for new ones.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { readContractDocument } from '../../src/contract/contract-document.ts';
import { type DeclaredField, declaredFields } from '../../src/contract/declared-fields.ts';
import type { ColumnSpec, TableSpec } from '../../src/destination/table-spec.ts';
import type { DeclaredRecords } from '../../src/evolution/evolution-plan.ts';
import { citationsTable } from '../../src/tables/index.ts';
import { openWorld, SANDBOX, type SyncTarget, testConfig } from './sync-suite.ts';

const bundled = await readContractDocument(buildOpenApiDocument());

const field = (name: string, type: string, nullable = false): DeclaredField => ({
  name,
  schema: { type, description: `The citation's ${name}.` },
  required: !nullable,
  nullable,
  description: `The citation's ${name}.`,
});

/** The bundled contract's declarations, with `citations` items declaring `extra` too: what a served document would add. */
const declaring =
  (...extra: DeclaredField[]): DeclaredRecords =>
  (stream, within) => [
    ...declaredFields(bundled, stream, within),
    ...(stream === 'citations' && within.length === 0 ? extra : []),
  ];

const CITATION_FIELDS = [field('url', 'string'), field('domain', 'string'), field('title', 'string', true)];

const column = (name: string, type: ColumnSpec['type']): ColumnSpec => ({
  name,
  type,
  nullable: true,
  description: '',
});

const citationsWith = (...columns: ColumnSpec[]): TableSpec => ({
  ...citationsTable,
  columns: [...citationsTable.columns, ...columns],
});

export function runEvolutionSuite(target: SyncTarget): void {
  describe(`schema evolution end to end on ${target.name}`, () => {
    let world: Awaited<ReturnType<typeof openWorld>>;
    beforeEach(async () => {
      world = await openWorld(target, { ...SANDBOX, variants: [] });
    });
    afterEach(async () => {
      await world.close();
    });

    it('declared citation fields become typed columns equal to the records, rows loaded before included', async () => {
      expect((await world.sync()).exitCode).toBe(0);
      const before = await world.rows(citationsTable);
      expect(before.length).toBeGreaterThan(0);

      const summary = await world.sync({ declaredFields: declaring(...CITATION_FIELDS) });
      expect(summary.exitCode).toBe(0);
      const table = citationsWith(column('url', 'string'), column('domain', 'string'), column('title', 'string'));
      const filled = await world.rows(table);
      expect(filled).toHaveLength(before.length);
      const fromRaw = (row: Record<string, unknown>) => {
        const raw = row._raw as { url: string; domain: string; title: string | null };
        return { id: row.id, url: raw.url, domain: raw.domain, title: raw.title };
      };
      const columns = (row: Record<string, unknown>) => ({
        id: row.id,
        url: row.url,
        domain: row.domain,
        title: row.title,
      });
      expect(filled.map(columns)).toEqual(filled.map(fromRaw));
      expect(filled.some((row) => row.title === null)).toBe(true);

      // Rows the loader writes under the same contract hold the same values.
      await world.sync({ declaredFields: declaring(...CITATION_FIELDS), fullRefresh: true });
      const rewritten = await world.rows(table);
      expect(rewritten).toHaveLength(filled.length);
      expect(rewritten.map(columns)).toEqual(rewritten.map(fromRaw));
    });

    it('a type the column cannot hold lands in <column>__<type>, the old values untouched', async () => {
      expect((await world.sync({ declaredFields: declaring(field('domain', 'integer')) })).exitCode).toBe(0);
      expect((await world.sync({ declaredFields: declaring(field('domain', 'string')) })).exitCode).toBe(0);
      const rows = await world.rows(citationsWith(column('domain', 'int64'), column('domain__string', 'string')));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.domain).toBeNull();
        expect(row.domain__string).toBe((row._raw as { domain: string }).domain);
      }
    });

    it('freeze adds no column', async () => {
      const config = testConfig(world.sandbox, { schema_evolution: 'freeze' });
      expect((await world.sync({ config, declaredFields: declaring(...CITATION_FIELDS) })).exitCode).toBe(0);
      const columns = (await world.destination.columnTypes([citationsTable])).get(citationsTable.name);
      expect([...columns!.keys()].sort()).toEqual(citationsTable.columns.map((c) => c.name).sort());
    });
  });
}
