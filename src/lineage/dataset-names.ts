/**
 * OpenLineage dataset names (its naming conventions, as the Python client's
 * `naming/dataset.py` writes them), so aivis's tables meet the same datasets another tool's
 * events name: Postgres `postgres://host:port` + `db.schema.table`, BigQuery `bigquery` +
 * `project.dataset.table`, Snowflake `snowflake://<account>` + `DB.SCHEMA.TABLE` (as Snowflake stores them), DuckDB
 * `duckdb://<absolute file path>` + `schema.table`. The API's streams, and a website's prompt
 * library that `import-prompts` writes, are datasets too: the base URL is their namespace.
 * No credential is ever part of a name.
 */
import type { DestinationConfig } from '../../schemas/config.ts';
import { storedName } from '../../schemas/snowflake-names.ts';

export interface DatasetName {
  readonly namespace: string;
  readonly name: string;
}

/** A table of the configured destination as OpenLineage names it. */
export function tableDataset(destination: DestinationConfig, table: string): DatasetName {
  switch (destination.type) {
    case 'postgres': {
      const url = new URL(destination.url);
      const database =
        decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
      return {
        namespace: `postgres://${url.hostname}:${url.port || '5432'}`,
        name: `${database}.${destination.schema}.${table}`,
      };
    }
    case 'duckdb':
      return { namespace: `duckdb://${destination.path}`, name: `${destination.schema}.${table}` };
    case 'bigquery':
      return { namespace: 'bigquery', name: `${destination.project}.${destination.dataset}.${table}` };
    case 'snowflake':
      // The names Snowflake stores: a quoted database or schema exactly, any other upper-case.
      return {
        namespace: `snowflake://${destination.account.toLowerCase()}`,
        name: [destination.database, destination.schema, table].map(storedName).join('.'),
      };
  }
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
