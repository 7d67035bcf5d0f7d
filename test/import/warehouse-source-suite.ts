/**
 * `aivis import-prompts --from-table / --from-query` as a user runs it, the same checks on
 * every destination: the sandbox on loopback (virtual clock), a table of prompts in the
 * destination, receipts loaded into the same destination. Each destination's file supplies
 * how to create and change the table behind aivis's back, in a few lines.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './import-harness.ts';

export interface WarehouseTarget {
  /** The destination block of the config (YAML lines, indented), after `setup`. */
  setup(): Promise<string[]>;
  teardown(): Promise<void>;
  /** Runs statements behind aivis's back, in the configured schema. */
  exec(sql: string): Promise<void>;
  /** A table of the configured schema as a user's query names it (BigQuery needs `dataset.table`); default as is. */
  table?(name: string): string;
  /** A result column's name as the engine gives it (Snowflake upper-cases unquoted names). */
  column(name: string): string;
  /** Column types of the engine. */
  readonly types: { readonly text: string };
  /** The engine's arrays: a column type of texts, and literals of texts and of integers. */
  readonly arrays: {
    readonly textArray: string;
    readonly tags: (tags: readonly string[]) => string;
    readonly integers: string;
  };
  /** An expression with another value each time a statement runs (the engine's random number). */
  readonly random: string;
  /** Digests `prompt_import_items.text_sha256` holds for the website. */
  digests(websiteId: string): Promise<number>;
}

/** `n` distinct prompts that classify confidently, as SQL `VALUES` rows (client_id, prompt_text). */
function promptValues(n: number, start = 0): string {
  const rows: string[] = [];
  for (let i = start; i < start + n; i++)
    rows.push(`('p${String(i).padStart(5, '0')}', 'What is the best CRM for team number ${i}?')`);
  return rows.join(', ');
}

export function describeWarehouseSource(name: string, target: WarehouseTarget): void {
  describe(`import-prompts from a table or query on ${name}`, () => {
    let h: Harness;
    const imports = () => h.sandbox.stats.byRoute['prompts.import'] ?? 0;
    const t = (name: string) => target.table?.(name) ?? name;

    beforeAll(async () => {
      const destination = await target.setup();
      h = await startHarness(['destination:', ...destination, ''].join('\n'), { websites: 0 });
      await target.exec(`CREATE TABLE prompts_src (client_id ${target.types.text}, prompt_text ${target.types.text})`);
      await target.exec(`INSERT INTO prompts_src VALUES ${promptValues(2500)}`);
    }, 120_000);
    afterAll(async () => {
      await h?.sandbox.close();
      await target.teardown();
    });

    it('imports 2,500 rows as 3 operations, then sends nothing, then only the 10 new rows, and --all lets the service skip them all', async () => {
      const first = await h.run({ 'from-table': 'prompts_src', json: true });
      expect(first.error).toBeUndefined();
      expect(first.code).toBe(0);
      const report = JSON.parse(first.out);
      expect(report.file).toBe('table:prompts_src');
      expect(report.journal).toBeNull();
      expect(report.partitions.map((p: { items: number }) => p.items)).toEqual([1000, 1000, 500]);
      expect(report.totals.created).toBe(2500);
      expect(report.rows).toEqual({ read: 2500, known: 0, sent: 2500 });
      expect(imports()).toBe(3);
      expect(await target.digests(h.websiteId)).toBe(2500);

      const again = await h.run({ 'from-table': 'prompts_src' });
      expect(again.code).toBe(0);
      expect(imports()).toBe(3);
      expect(again.out).toContain(
        `Rows: 2500 read, 2500 already known, 0 sent (created 0, skipped 0). Nothing new to send: every row's prompt was already created or skipped as a duplicate for ${h.websiteId} (--all sends every row again).`,
      );

      await target.exec(`INSERT INTO prompts_src VALUES ${promptValues(10, 2500)}`);
      const added = JSON.parse((await h.run({ 'from-table': 'prompts_src', json: true })).out);
      expect(added.partitions.map((p: { items: number; first_line: number }) => [p.items, p.first_line])).toEqual([
        [10, 2501],
      ]);
      expect(added.totals.created).toBe(10);
      expect(added.rows).toEqual({ read: 2510, known: 2500, sent: 10 });
      expect(imports()).toBe(4);

      const all = JSON.parse((await h.run({ 'from-table': 'prompts_src', all: true, json: true })).out);
      expect(all.partitions).toHaveLength(3);
      expect(all.partitions.every((p: { origin: string }) => p.origin === 'this_run')).toBe(true);
      expect(all.totals.created).toBe(0);
      expect(all.totals.skipped_active_duplicate).toBe(2510);
      expect(all.rows).toEqual({ read: 2510, known: 0, sent: 2510 });
      expect(imports()).toBe(7);
    });

    it('keeps a --journal when asked: written by the first run, consulted by the next, which sends only the new rows', async () => {
      await target.exec(`CREATE TABLE journaled (client_id ${target.types.text}, prompt_text ${target.types.text})`);
      await target.exec(`INSERT INTO journaled VALUES ${promptValues(3, 5000)}`);
      const journal = path.join(h.dir, 'journaled.journal.json');
      const before = imports();
      const first = JSON.parse((await h.run({ 'from-table': 'journaled', journal, json: true })).out);
      expect(first.journal).toBe(journal);
      expect(first.totals.created).toBe(3);
      const written = JSON.parse(await readFile(journal, 'utf8'));
      expect(Object.values(written.partitions).map((p: any) => [p.items, p.attempts.at(-1).status])).toEqual([
        [3, 'succeeded'],
      ]);

      // Again as it is: every row known, nothing sent. With --all the journal answers for the
      // partition it recorded, so nothing is sent either.
      expect(JSON.parse((await h.run({ 'from-table': 'journaled', journal, json: true })).out).rows).toEqual({
        read: 3,
        known: 3,
        sent: 0,
      });
      const all = JSON.parse((await h.run({ 'from-table': 'journaled', journal, all: true, json: true })).out);
      expect(all.partitions.map((p: { origin: string }) => p.origin)).toEqual(['journal']);
      expect(imports()).toBe(before + 1);

      // Two rows more: the new rows are a partition of their own, sent as a new operation.
      await target.exec(`INSERT INTO journaled VALUES ${promptValues(2, 5003)}`);
      const added = await h.run({ 'from-table': 'journaled', journal, json: true });
      expect(added.error).toBeUndefined();
      const report = JSON.parse(added.out);
      expect(report.rows).toEqual({ read: 5, known: 3, sent: 2 });
      expect(report.partitions.map((p: { origin: string; items: number }) => [p.origin, p.items])).toEqual([
        ['this_run', 2],
      ]);
      expect(report.totals.created).toBe(2);
      expect(imports()).toBe(before + 2);
    });

    it('imports the rows of a --from-query with a WHERE, tags as comma-separated text', async () => {
      await target.exec(
        `CREATE TABLE tagged (prompt_text ${target.types.text}, tags ${target.types.text}, lang ${target.types.text})`,
      );
      await target.exec(
        "INSERT INTO tagged VALUES ('Which running shoes last longest?', 'shoes, Discovery', 'en'), ('Welche Laufschuhe halten am längsten?', NULL, 'de')",
      );
      const before = imports();
      const result = await h.run({
        'from-query': `SELECT prompt_text, tags, lang AS language FROM ${t('tagged')} WHERE lang = 'en' -- English only`,
        json: true,
      });
      expect(result.error).toBe(undefined);
      const report = JSON.parse(result.out);
      expect(report.file).toMatch(/^query:[0-9a-f]{64}$/);
      expect(report.rows).toEqual({ read: 1, known: 0, sent: 1 });
      expect(report.totals.created).toBe(1);
      expect(imports()).toBe(before + 1);
    });

    it('reads tags from an array column, each element one tag (commas and all)', async () => {
      const { textArray, tags } = target.arrays;
      await target.exec(`CREATE TABLE tag_arrays (prompt_text ${target.types.text}, tags ${textArray})`);
      // 20 tags, the most an item may have: split at their commas they would be 39, refused.
      const many = ['Comparison', ...Array.from({ length: 19 }, (_, i) => `crm ${i}, enterprise`)];
      // INSERT ... SELECT: Snowflake refuses ARRAY_CONSTRUCT in a VALUES clause.
      await target.exec(
        `INSERT INTO tag_arrays SELECT 'What is the best CRM for a team of ten?', ${tags(['crm', 'Comparison'])} UNION ALL SELECT 'Which CRM suits a team of twenty?', ${tags(many)}`,
      );
      const result = await h.run({ 'from-table': 'tag_arrays' });
      expect(result.error).toBeUndefined();
      expect(result.code).toBe(0);
      expect(result.out).toContain('Rows: 2 read, 0 already known, 2 sent (created 2, skipped 0)');
    });

    it('sends only rows it checked: a query that answers differently on its second read stops the run before any request', async () => {
      const before = imports();
      const result = await h.run({
        'from-query': `SELECT 'Which CRM fits team ' || CAST(${target.random} AS ${target.types.text}) || '?' AS prompt_text`,
      });
      expect(imports()).toBe(before);
      expect(result.code).toBe(1);
      expect(result.error).toMatch(
        /^query:[0-9a-f]{64}: the rows changed while aivis read them \(from row 1 on, they are not the rows it checked\); no row from there on was sent: run the same command again, on rows that hold still while it runs$/,
      );
    });

    describe('bad input: exit 2 naming the row and column, nothing sent', () => {
      const refused = async (args: Parameters<Harness['run']>[0]) => {
        const before = imports();
        const result = await h.run(args);
        expect(imports()).toBe(before);
        expect(result.code).toBe(2);
        return result.error;
      };

      it('an unknown column, and a missing prompt_text', async () => {
        expect(await refused({ 'from-query': "SELECT 'x' AS prompt_text, 'y' AS colour" })).toBe(
          `--from-query: unknown column "${target.column('colour')}" (columns: prompt_text, client_id, tags, language, search_intent, category, topic, seed_keyword); nothing was sent`,
        );
        expect(await refused({ 'from-query': "SELECT 'x' AS client_id" })).toBe(
          '--from-query: the column "prompt_text" is missing (columns: prompt_text, client_id, tags, language, search_intent, category, topic, seed_keyword); nothing was sent',
        );
      });

      it('a non-text value in a text column; an integer client_id is read as its text', async () => {
        expect(
          await refused({ 'from-query': "SELECT 7 AS client_id, 'Best CRM?' AS prompt_text, 42 AS topic" }),
        ).toMatch(
          /^query:[0-9a-f]{64}: 1 problem; nothing was sent:\n {2}row 1 \(client_id "7"\), column topic: must be text \(got the number 42\)$/,
        );
      });

      it('an array of non-strings', async () => {
        expect(
          await refused({ 'from-query': `SELECT 'Best CRM?' AS prompt_text, ${target.arrays.integers} AS tags` }),
        ).toMatch(/row 1, column tags: must be an array of texts \(element 1 is the number 1\)$/);
      });

      it('the same client_id twice', async () => {
        expect(
          await refused({
            'from-query':
              "SELECT 'a' AS client_id, 'First prompt?' AS prompt_text UNION ALL SELECT 'a', 'Second prompt?'",
          }),
        ).toMatch(
          /row 2 \(client_id "a"\), column client_id: repeats the client_id of row 1; client_ids must be unique$/,
        );
      });

      it('a statement that is not one read-only SELECT, and one that fails', async () => {
        expect(await refused({ 'from-query': `DELETE FROM ${t('prompts_src')} WHERE TRUE` })).toBe(
          "--from-query runs read-only statements only, and this is a DELETE statement: refused before it ran (read with SELECT; change data with the warehouse's own tools)",
        );
        expect(await refused({ 'from-query': 'SELECT 1 AS prompt_text; SELECT 2' })).toBe(
          '--from-query runs one statement, and this text holds more than one: refused before any ran (run them one at a time)',
        );
        expect(await refused({ 'from-query': `SELECT prompt_text FROM ${t('no_such_table')}` })).toMatch(
          /no_such_table/i,
        );
      });

      it('a table that does not exist', async () => {
        expect(await refused({ 'from-table': 'no_such_table' })).toMatch(
          /^--from-table no_such_table: the destination cannot read it: .*no_such_table.*; nothing was sent$/i,
        );
        expect(await refused({ 'from-table': 'x; DROP TABLE prompts_src' })).toBe(
          '--from-table x; DROP TABLE prompts_src: not a table name; give table, schema.table or database.schema.table (a part with other characters in double quotes)',
        );
      });
    });

    it('names a failed item by its row and client_id, and its partition by rows, when classification fails', async () => {
      await target.exec(
        `CREATE TABLE unclassifiable (client_id ${target.types.text}, prompt_text ${target.types.text})`,
      );
      await target.exec("INSERT INTO unclassifiable VALUES ('c1', 'zzzz qqqq xxxx')");
      const result = await h.run({ 'from-table': 'unclassifiable' });
      expect(result.code).toBe(1);
      const out = result.out.trimEnd().split('\n');
      expect(out.find((line) => line.startsWith('  partition 1:'))).toMatch(/^ {2}partition 1: rows 1-1, 1 items, /);
      expect(out).toContain(
        '  row 1 (client_id c1): classification_failed (not given: language, search_intent, journey tag)',
      );
    });
  });
}
