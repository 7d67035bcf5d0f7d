/**
 * docs/tables.md's guidance for analysts holds for the tables as specified: every timestamp
 * column aivis writes is on one of the "Two clocks" lists (the sync's own columns on the
 * sync's), and the breakdown tables' trends start at the first sync because the history the
 * API serves carries no breakdown.
 */
import { describe, expect, it } from 'vitest';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { analyticsHistoryTable, ENGINE_TABLES } from '../../src/tables/index.ts';
import { PROMPT_IMPORT_TABLES } from '../../src/tables/prompt-imports.ts';
import { docFiles } from './markdown.ts';

const tablesDoc = docFiles().find((f) => f.name === 'docs/tables.md')!.text;

/** The text of the `## <title>` section of tables.md, up to the next `## `. */
function section(title: string): string {
  const start = tablesDoc.indexOf(`\n## ${title}\n`);
  expect(start, `tables.md has a section "${title}"`).toBeGreaterThan(0);
  const end = tablesDoc.indexOf('\n## ', start + 1);
  return tablesDoc.slice(start, end);
}

/** The names a bullet of the clocks section quotes in backticks, a `table.` prefix dropped. */
function quoted(bullet: string): Set<string> {
  return new Set([...bullet.matchAll(/`([\w.]+)`/g)].map((m) => m[1]!.replace(/^\w+\./, '')));
}

/** The names on each list of the "Two clocks" section. */
function clockLists(): { api: Set<string>; sync: Set<string> } {
  const clocks = section('Two clocks');
  return {
    api: quoted(/- \*\*The API's clock\*\*[\s\S]*?(?=\n- \*\*)/.exec(clocks)?.[0] ?? ''),
    sync: quoted(/- \*\*The sync's clock\*\*[\s\S]*?(?=\n\n)/.exec(clocks)?.[0] ?? ''),
  };
}

describe('tables.md for analysts', () => {
  it('says websites._removed_at is when a sync noticed the removal, not when it happened', () => {
    const row = tablesDoc.split('\n').find((line) => line.startsWith('| `_removed_at` |'));
    expect(row).toContain("the sync's clock: when aivis noticed, not when the website was removed");
  });

  it("puts every timestamp column aivis writes on the API's clock or the sync's", () => {
    const { api, sync } = clockLists();
    const tables: TableSpec[] = [
      ...new Set(Object.values(STREAM_TABLES).flat()),
      ...PROMPT_IMPORT_TABLES,
      ...ENGINE_TABLES,
    ];
    const timestamps = new Set(
      tables.flatMap((t) => t.columns.filter((c) => c.type === 'timestamp').map((c) => c.name)),
    );
    expect(timestamps.size).toBeGreaterThan(10);
    expect([...timestamps].filter((name) => !api.has(name) && !sync.has(name))).toEqual([]);
  });

  it("names the columns the sync stamps on the sync's clock, and the API's times on the API's", () => {
    const { api, sync } = clockLists();
    for (const name of ['_first_seen_at', '_removed_at', '_synced_at', 'started_at', 'updated_at'])
      expect([name, sync.has(name), api.has(name)]).toEqual([name, true, false]);
    for (const name of ['as_of', 'available_at', 'last_analysis_at', 'observed_at', 'first_as_of'])
      expect([name, api.has(name), sync.has(name)]).toEqual([name, true, false]);
    // A feed's completeness is its frontier (the API's); a listing's or snapshot's, when it was read (the sync's).
    expect([api.has('complete_through'), sync.has('complete_through')]).toEqual([true, true]);
  });

  it('says provider and competitor trends start at the first sync: the history the API serves has no breakdown', () => {
    const breakdown = ['provider', 'competitor_domain'];
    expect(analyticsHistoryTable.columns.filter((c) => breakdown.includes(c.name))).toEqual([]);
    const trends = section('Provider and competitor trends start at the first sync').replace(/\s+/g, ' ');
    expect(trends).toContain('their trends start at your first sync');
    expect(trends).toContain('cannot be backfilled');
  });
});
