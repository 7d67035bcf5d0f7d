/**
 * What OpenLineage is told of an import (docs/operations.md#lineage-and-metrics): the input it read and, when it did
 * not succeed, why.
 */
import type { DestinationConfig } from '../../schemas/config.ts';
import { type DatasetName, fileDataset, tableDataset } from '../lineage/dataset-names.ts';
import type { ImportOptions } from './import-options.ts';
import type { ImportReport } from './import-report.ts';
import type { ImportSource } from './import-source.ts';

/** The lineage input: the file, or the table (a query's tables are not known to aivis). */
export function inputDatasets(
  destination: DestinationConfig,
  source: ImportSource,
  options: ImportOptions,
): DatasetName[] {
  if ('file' in source) return [fileDataset(options.file)];
  if (!('table' in source)) return [];
  const parts = source.table.split('.');
  const table = tableDataset(destination, parts.at(-1)!);
  return [parts.length === 1 ? table : { namespace: table.namespace, name: source.table }];
}

/** Why a finished import failed, for its FAIL event: the first partition that did not succeed. */
export function importFailure(report: ImportReport): string {
  const failed = report.partitions.find((p) => p.status !== 'succeeded');
  if (!failed) return 'the import failed';
  const code = failed.error_code ? ` (${failed.error_code})` : '';
  return `partition ${failed.partition} (input lines ${failed.first_line}-${failed.last_line}) ended ${failed.status}${code}`;
}
