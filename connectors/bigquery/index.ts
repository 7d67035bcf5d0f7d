/**
 * The BigQuery destination (docs/architecture.md#adding-a-destination). Importing this file
 * loads no SDK: `@google-cloud/bigquery` and `google-auth-library` are imported by `open()`.
 */
export { type BigqueryDeps, createBigqueryDestination } from './bigquery-destination.ts';
export { openBigqueryQuery } from './bigquery-query.ts';
