/**
 * The rows a correct sync must hold, built from the sandbox's truth by test code of its own
 * (not by the stream mappers under test): each column named after a record field must equal
 * that field, and `_raw` must be the record as the API serves it.
 */
import { createHash } from 'node:crypto';
import { COUNT_KEYS, METRIC_KEYS } from '../../schemas/keys.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import {
  analyticsCompetitorsTable,
  analyticsHistoryTable,
  analyticsLatestTable,
  analyticsProvidersTable,
  citationsTable,
  mentionsTable,
  websitesTable,
} from '../../src/tables/index.ts';
import { normalizeRow, type LogicalRow } from '../conformance/normalize.ts';

type Rec = Record<string, any>;

/** The columns compared with the truth: data columns, not load bookkeeping. */
export function dataColumns(table: TableSpec): string[] {
  return table.columns
    .map((c) => c.name)
    .filter((n) => !['_synced_at', '_run_id', '_first_seen_at', '_removed_at'].includes(n));
}

const pick = (row: LogicalRow, columns: readonly string[]) => Object.fromEntries(columns.map((c) => [c, row[c]]));

function versionTags(meta: Rec) {
  return {
    projection_version: meta.projection_version,
    metric_definition_bundle_version: meta.metric_definition_bundle_version,
    metric_precision_version: meta.metric_precision_version,
    metric_definition_versions: meta.metric_definition_versions,
    is_partial: meta.data_quality.is_partial,
  };
}

function analyticsColumns(record: Rec, meta: Rec) {
  return {
    website_id: record.website_id,
    analysis_id: record.analysis_id,
    as_of: record.as_of,
    available_at: record.available_at,
    ...Object.fromEntries(METRIC_KEYS.map((k) => [k, record.metrics[k]])),
    ...Object.fromEntries(COUNT_KEYS.map((k) => [k, record.counts[k]])),
    unavailable_reasons: meta.unavailable_reasons,
    ...versionTags(meta),
  };
}

function breakdownRows(snapshot: { data: Rec; meta: Rec }, entries: Rec[], keyName: string) {
  const { data, meta } = snapshot;
  return entries.map((entry) => ({
    website_id: data.website_id,
    analysis_id: data.analysis_id ?? '',
    as_of: data.as_of,
    available_at: data.available_at,
    [keyName]: entry[keyName],
    ...entry.metrics,
    ...entry.counts,
    unavailable_reasons: entry.unavailable_reasons,
    ...versionTags(meta),
    _raw: entry,
  }));
}

/**
 * A citation's key by README's rule, written here apart from the code under test: its `id`,
 * else `sha256:` + SHA-256 of the canonical JSON of `[website, analysis_id, provider,
 * observed_at, url]` (or `[website, record]` when one of those is not a string).
 */
export function expectedCitationKey(citation: Rec, websiteId: string): string {
  if (typeof citation.id === 'string' && citation.id !== '') return citation.id;
  const fields = [citation.analysis_id, citation.provider, citation.observed_at, citation.url];
  const identity = fields.every((f) => typeof f === 'string') ? [websiteId, ...fields] : [websiteId, citation];
  return `sha256:${createHash('sha256').update(canonicalJson(identity), 'utf8').digest('hex')}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Rec;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** README: a record nested deeper than 100 levels of objects and arrays is quarantined. */
export function tooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= 100) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Expected rows of every data table, synced from `workspace`, keyed by table name (JSON values as objects). */
export function expectedTables(sandbox: Sandbox, workspace = 'default'): Map<string, Rec[]> {
  const tables = new Map<string, Rec[]>([
    [websitesTable.name, []],
    [analyticsLatestTable.name, []],
    [analyticsProvidersTable.name, []],
    [analyticsCompetitorsTable.name, []],
    [analyticsHistoryTable.name, []],
    [mentionsTable.name, []],
    [citationsTable.name, []],
  ]);
  // Records nested deeper than README's limit are quarantined, not loaded.
  const add = (table: TableSpec, row: Rec) => {
    if (!tooDeep(row._raw)) tables.get(table.name)!.push({ ...row, _workspace: workspace });
  };
  for (const website of sandbox.truth.websites() as Rec[]) {
    add(websitesTable, { ...website, _raw: website });
    const id = website.id as string;
    const snapshot = sandbox.truth.snapshot(id, ['providers', 'competitors']) as { data: Rec; meta: Rec } | null;
    if (snapshot) {
      add(analyticsLatestTable, { ...analyticsColumns(snapshot.data, snapshot.meta), _raw: snapshot });
      for (const row of breakdownRows(snapshot, snapshot.data.providers, 'provider')) add(analyticsProvidersTable, row);
      for (const row of breakdownRows(snapshot, snapshot.data.competitors, 'competitor_domain'))
        add(analyticsCompetitorsTable, row);
    }
    for (const point of sandbox.truth.history(id))
      add(analyticsHistoryTable, { ...analyticsColumns(point, point.meta as Rec), _raw: point });
    for (const m of sandbox.truth.mentions(id)) add(mentionsTable, { ...m, website_id: id, _raw: m });
    for (const c of sandbox.truth.citations(id)) {
      add(citationsTable, {
        id: expectedCitationKey(c, id),
        website_id: id,
        analysis_id: c.analysis_id ?? null,
        provider: c.provider ?? null,
        observed_at: c.observed_at ?? null,
        available_at: c.available_at ?? null,
        _raw: c,
      });
    }
  }
  return tables;
}

/** Normalizes and sorts rows by primary key, keeping only the compared columns. */
export function comparable(table: TableSpec, rows: readonly Rec[]): Rec[] {
  const columns = dataColumns(table);
  const normalized = rows.map((row) => {
    const logical = normalizeRow(table, {
      ...row,
      _raw: typeof row._raw === 'string' ? row._raw : JSON.stringify(row._raw),
    });
    const picked = pick(logical, columns);
    // The live response carries a request id; the truth has none.
    if (table === analyticsLatestTable && picked._raw && typeof picked._raw === 'object')
      delete (picked._raw as Rec).meta?.request_id;
    return picked;
  });
  const key = (r: Rec) => table.primaryKey.map((k) => String(r[k])).join('\u0001');
  return normalized.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

interface Tagged {
  readonly as_of: string;
  readonly meta: {
    projection_version: string;
    metric_definition_bundle_version: string;
    metric_precision_version: string;
    metric_definition_versions: Record<string, string>;
  };
}

/**
 * `workspace`'s `metric_versions` rows as its sandbox's truth implies them (every history point
 * and latest snapshot of the listed websites), oldest first, without `version_key` and
 * `website_ids`; `firstRunOf` names the run that first saw a bundle.
 */
export function expectedMetricVersions(sandbox: Sandbox, workspace: string, firstRunOf: (bundle: string) => string) {
  const combinations = new Map<string, { tags: Tagged['meta']; asOfs: string[]; websites: Set<string> }>();
  for (const { id } of sandbox.truth.websites() as { id: string }[]) {
    const snapshot = sandbox.truth.snapshot(id) as { data: { as_of: string }; meta: Tagged['meta'] } | null;
    const tagged = [...(sandbox.truth.history(id) as Iterable<Tagged>)];
    if (snapshot) tagged.push({ as_of: snapshot.data.as_of, meta: snapshot.meta });
    for (const { as_of, meta } of tagged) {
      const tags = {
        projection_version: meta.projection_version,
        metric_definition_bundle_version: meta.metric_definition_bundle_version,
        metric_precision_version: meta.metric_precision_version,
        metric_definition_versions: meta.metric_definition_versions,
      };
      const key = JSON.stringify([
        tags.projection_version,
        tags.metric_definition_bundle_version,
        tags.metric_precision_version,
        Object.entries(tags.metric_definition_versions).sort(),
      ]);
      const combination =
        combinations.get(key) ?? combinations.set(key, { tags, asOfs: [], websites: new Set() }).get(key)!;
      combination.asOfs.push(microsecondTimestamp(as_of));
      combination.websites.add(id);
    }
  }
  return [...combinations.values()]
    .map(({ tags, asOfs, websites }) => ({
      _workspace: workspace,
      ...tags,
      first_as_of: asOfs.sort()[0]!,
      last_as_of: asOfs.at(-1)!,
      websites: BigInt(websites.size),
      first_run_id: firstRunOf(tags.metric_definition_bundle_version),
    }))
    .sort((a, b) => (a.first_as_of < b.first_as_of ? -1 : 1));
}
