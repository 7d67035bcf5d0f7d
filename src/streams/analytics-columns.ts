/**
 * Columns shared by every analytics row: metrics and counts as their own columns (missing
 * stays NULL, never 0) and the version tags of the snapshot or history point.
 */
import type { RowOfColumns } from '../destination/table-spec.ts';
import type { VERSION_COLUMNS } from '../tables/analytics.ts';
import { jsonText } from './stream.ts';

/** Version metadata as the snapshot meta and history point meta carry it (spec 2.3). */
export interface VersionMeta {
  readonly projection_version: string;
  readonly metric_definition_bundle_version: string;
  readonly metric_precision_version: string;
  readonly metric_definition_versions: unknown;
  readonly data_quality: { readonly is_partial: boolean };
}

export function versionColumns(meta: VersionMeta): RowOfColumns<typeof VERSION_COLUMNS> {
  return {
    projection_version: meta.projection_version,
    metric_definition_bundle_version: meta.metric_definition_bundle_version,
    metric_precision_version: meta.metric_precision_version,
    metric_definition_versions: jsonText(meta.metric_definition_versions),
    is_partial: meta.data_quality.is_partial,
  };
}

/** Copies `keys` of a metrics or counts object into columns of the same names. */
export function pickColumns<Key extends string>(
  source: object,
  keys: readonly Key[],
): { readonly [Column in Key]: number | null } {
  const values = source as Readonly<Record<string, unknown>>;
  const row = {} as { [Column in Key]: number | null };
  for (const key of keys) {
    const value = values[key];
    row[key] = typeof value === 'number' ? value : null;
  }
  return row;
}
