/**
 * OpenLineage dataset names (its naming conventions, as the Python client's
 * `naming/dataset.py` writes them), so aivis's tables meet the same datasets another tool's
 * events name: Postgres `postgres://host:port` + `db.schema.table`, BigQuery `bigquery` +
 * `project.dataset.table`, Snowflake `snowflake://<account>` + `DB.SCHEMA.TABLE` (as Snowflake stores them), DuckDB
 * `duckdb://<absolute file path>` + `schema.table` (each destination's `tableDataset` in
 * `connectors/<name>/descriptor.ts`). The API's streams, and a website's prompt
 * library that `import-prompts` writes, are datasets too: the base URL is their namespace.
 * No credential is ever part of a name.
 */
import { DESTINATIONS, descriptorOf } from '../../connectors/registry.ts';
import type { DestinationConfig } from '../../schemas/config.ts';
import type { DatasetName } from './dataset-name.ts';

export type { DatasetName } from './dataset-name.ts';

/** A table of the configured destination as OpenLineage names it (its descriptor says how). */
export function tableDataset(destination: DestinationConfig, table: string, registry = DESTINATIONS): DatasetName {
  return descriptorOf(destination.type, registry).tableDataset(destination, table);
}

/** A stream of the API: namespace the base URL (no credentials, no trailing slash), name the stream. */
export function streamDataset(baseUrl: string, stream: string): DatasetName {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return { namespace: url.href.replace(/\/+$/, ''), name: stream };
}

/** The website's prompt library at the API, what `import-prompts` writes into. */
export function promptLibraryDataset(baseUrl: string, websiteId: string): DatasetName {
  return streamDataset(baseUrl, `websites/${websiteId}/prompts`);
}

/** A local file (the prompt import's input), as OpenLineage names local files: `file` + its absolute path. */
export function fileDataset(absolutePath: string): DatasetName {
  return { namespace: 'file', name: absolutePath };
}
