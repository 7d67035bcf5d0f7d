/**
 * Reading BigQuery with a user's statement (`aivis query`; src/destination/read-only-query.ts).
 * BigQuery judges the statement first in a dry run, which runs nothing and bills nothing: its
 * `statementType` must be `SELECT` (several statements are a `SCRIPT`). The query job's result is
 * then read a page at a time.
 */
import type { QueryCell, QueryRole } from '../../src/destination/read-only-query.ts';
import { int64FromText } from '../../src/destination/int64-value.ts';
import { isoFromMicros } from '../../src/destination/timestamp-micros.ts';
import { ConfigError } from '../../src/errors.ts';
import type { ResultField } from './bigquery-client.ts';
import type { BigqueryConfig } from './bigquery-config.ts';
import { type BigqueryDeps, connectBigquery } from './bigquery-destination.ts';
import { BIGQUERY_DIALECT } from './bigquery-dialect.ts';

export async function openBigqueryQuery(config: BigqueryConfig, deps: BigqueryDeps): Promise<QueryRole> {
  const client = await connectBigquery(config, deps);
  return {
    engine: 'BigQuery',
    dialect: BIGQUERY_DIALECT,
    async inspect(sql) {
      let kind: string;
      try {
        kind = await client.statementType(sql);
      } catch (error) {
        // BigQuery's refusal of the statement itself (its syntax, an unknown table) is the user's to fix.
        const cause = (error as { cause?: { message?: string; errors?: { reason?: string }[] } }).cause;
        const reason = cause?.errors?.[0]?.reason;
        if (reason === 'invalidQuery' || reason === 'notFound')
          throw new ConfigError(`BigQuery cannot run the statement: ${cause?.message}`);
        throw error;
      }
      return { several: kind === 'SCRIPT', kind, reads: kind === 'SELECT' };
    },
    async run(statement, pageRows) {
      const { fields, pages } = await client.queryPages(statement.sql, pageRows);
      async function* cells() {
        for await (const rows of pages) yield rows.map((row) => fields.map((field, i) => cell(field, row.f[i]?.v)));
      }
      return { columns: fields.map((f) => f.name), pages: cells() };
    },
    qualify: (table) => BIGQUERY_DIALECT.qualified([client.project, client.dataset, table]),
    // The client holds no connection: each call is its own request.
    close: async () => undefined,
  };
}

/** A REST cell (`{v}`; a REPEATED field's `v` is a list of `{v}`, a RECORD's is `{f: [...]}`) as a result cell. */
function cell(field: ResultField, v: unknown): QueryCell {
  if (v === null || v === undefined) return null;
  if (field.mode === 'REPEATED')
    return (v as { v: unknown }[]).map((item) => cell({ ...field, mode: 'NULLABLE' }, item.v));
  if (field.type === 'RECORD' || field.type === 'STRUCT') {
    const { f } = v as { f: { v: unknown }[] };
    return Object.fromEntries((field.fields ?? []).map((sub, i) => [sub.name, cell(sub, f[i]?.v)]));
  }
  const text = String(v);
  switch (field.type) {
    case 'INT64':
    case 'INTEGER':
      return int64FromText(text);
    case 'FLOAT64':
    case 'FLOAT':
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case 'BOOL':
    case 'BOOLEAN':
      return text === 'true';
    case 'TIMESTAMP':
      // The client asks for int64 microseconds (`useInt64Timestamp`).
      return isoFromMicros(BigInt(text));
    case 'JSON':
      return JSON.parse(text) as QueryCell;
    default:
      return text;
  }
}
