/**
 * BigQuery as a test target: the real `@google-cloud/bigquery` client against the local
 * stand-in (test/stand-ins/bigquery), one dataset per schema. Rows are read back through a
 * second SDK client, decoding raw cells here rather than with the connector's decoder.
 * Call it at a test file's top level: it starts and stops the stand-in with the file.
 */
import { BigQuery } from '@google-cloud/bigquery';
import { afterAll, beforeAll } from 'vitest';
import { createBigqueryDestination } from '../../../connectors/bigquery/index.ts';
import type { StoredComment } from '../../../src/destination/descriptions.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { normalizeRow } from '../../conformance/normalize.ts';
import {
  type BigqueryFaults,
  startBigqueryStandIn,
  type BigqueryStandIn,
} from '../../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../../stand-ins/bigquery/fake-auth.ts';
import type { HandWrittenSql, TestTarget } from './postgres-target.ts';

/**
 * Faults the shared suites run BigQuery with: no DML reruns (concurrent workspaces' flushes
 * conflict and are retried by aivis), every query job RUNNING for a poll, results in pages of
 * 50, every 7th job failing with backendError, every 5th upload reset after its job ran (the
 * answer lost). (Wire faults of jobs.insert are left to bigquery-faults.test.ts: the SDK's own
 * retry of them waits seconds of real time.)
 */
export const SUITE_FAULTS: { readonly dmlReruns: number; readonly faults: BigqueryFaults } = {
  dmlReruns: 0,
  faults: {
    runningPolls: 1,
    pageRows: 50,
    jobFailures: { every: 7, reason: 'backendError' },
    uploadFailures: { every: 5, kind: 'lostResponse' },
  },
};

export function useBigqueryTarget(
  options: { dmlReruns?: number; faults?: BigqueryFaults } = {},
): Omit<TestTarget, 'close'> & HandWrittenSql & { standIn(): BigqueryStandIn } {
  let standIn: BigqueryStandIn;
  let reader: BigQuery;
  const query = async (sql: string) => {
    const [job] = await reader.createQueryJob({ query: sql });
    const [rows] = (await job.getQueryResults({ skipParsing: true, autoPaginate: false } as object)) as unknown as [
      { f: { v: string | null }[] }[],
    ];
    return rows;
  };
  beforeAll(async () => {
    standIn = await startBigqueryStandIn(options);
    reader = new BigQuery({
      projectId: standIn.projectId,
      apiEndpoint: standIn.url,
      authClient: fakeAuthClient(),
      location: 'US',
    });
  });
  afterAll(() => standIn?.close());
  return {
    name: 'bigquery',
    standIn: () => standIn,
    create: async (schema) =>
      createBigqueryDestination(
        { type: 'bigquery', project: standIn.projectId, dataset: schema, location: 'US', api_endpoint: standIn.url },
        // Retries back off by a jitter draw of 0: no waiting in tests.
        { logger: silentLogger, authClient: fakeAuthClient(), random: () => 0 },
      ),
    qualifiedName: (schema, table) => `\`${standIn.projectId}.${schema}.${table}\``,
    // The tests' own statements and reads run with the faults off: they are not aivis's.
    execute: (_schema, statement) => standIn.withoutFaults(async () => void (await query(statement))),
    json: (text) => `JSON '${text}'`,
    timestamp: (text) => `TIMESTAMP '${text}'`,
    async comments(schema) {
      const [tables] = await reader.dataset(schema).getTables();
      const out: StoredComment[] = [];
      for (const table of tables) {
        const [metadata] = await table.getMetadata();
        out.push({ table_name: table.id!, column_name: null, comment: metadata.description ?? null });
        for (const field of metadata.schema?.fields ?? [])
          out.push({ table_name: table.id!, column_name: field.name, comment: field.description ?? null });
      }
      return out;
    },
    async readRows(_destination, schema, table) {
      const order = table.primaryKey.map((k) => `\`${k}\``).join(', ');
      const names = table.columns.map((c) => `\`${c.name}\``).join(', ');
      const rows = await standIn.withoutFaults(() =>
        query(`SELECT ${names} FROM \`${standIn.projectId}.${schema}.${table.name}\` ORDER BY ${order}`),
      );
      return rows.map((row) =>
        normalizeRow(
          table,
          Object.fromEntries(
            table.columns.map((c, i) => [
              c.name,
              c.type === 'timestamp' ? microsText(row.f[i]?.v ?? null) : row.f[i]?.v,
            ]),
          ),
        ),
      );
    },
  };
}

/**
 * Raw cells, decoded here rather than by the connector or the SDK: the SDK's own parsing puts
 * TIMESTAMPs before 1970 one second early (9.3: `-14182939999999` -> `20:17:39.000001`).
 */
function microsText(cell: string | null): string | null {
  if (cell === null) return null;
  const micros = BigInt(cell);
  const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  const fraction = (micros - seconds * 1_000_000n).toString().padStart(6, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}
