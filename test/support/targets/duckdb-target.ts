/** DuckDB as a test target: one database file per schema, read back through the same engine. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { createDuckdbDestination } from '../../../connectors/duckdb/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import type { StoredComment } from '../../../src/destination/descriptions.ts';
import { normalizeRow } from '../../conformance/normalize.ts';
import type { HandWrittenSql, TestTarget } from './postgres-target.ts';

export function duckdbTarget(): TestTarget & HandWrittenSql & { file(schema: string): string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-'));
  // Each file is named like its schema, as aivis 0.1's default was (aivis.duckdb, schema aivis):
  // DuckDB then calls the catalog by the schema's name too, so only a three-part name is
  // unambiguous, and aivis must (and does) write three-part names.
  const file = (schema: string) => path.join(dir, `${schema}.duckdb`);
  // Through a second connection to the same in-process instance (DuckDB allows one writer process).
  const withConnection = async <T>(schema: string, use: (connection: DuckDBConnection) => Promise<T>): Promise<T> => {
    const instance = await DuckDBInstance.fromCache(file(schema));
    const connection = await instance.connect();
    try {
      return await use(connection);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  };
  return {
    name: 'duckdb',
    file,
    create: async (schema) =>
      createDuckdbDestination({ type: 'duckdb', path: file(schema), schema }, { logger: silentLogger }),
    readRows: (_destination, schema, table) =>
      withConnection(schema, async (connection) => {
        const columns = table.columns.map((c) =>
          c.type === 'timestamp' || c.type === 'json' ? `CAST("${c.name}" AS VARCHAR) AS "${c.name}"` : `"${c.name}"`,
        );
        const reader = await connection.runAndReadAll(
          `SELECT ${columns.join(', ')} FROM "${schema}"."${schema}"."${table.name}"`,
        );
        return reader.getRowObjectsJS().map((row) => normalizeRow(table, row));
      }),
    comments: (schema) =>
      withConnection(schema, async (connection) => {
        const reader = await connection.runAndReadAll(
          `SELECT table_name, NULL AS column_name, comment FROM duckdb_tables() WHERE schema_name = $1
           UNION ALL SELECT view_name, NULL, comment FROM duckdb_views() WHERE schema_name = $1
           UNION ALL SELECT table_name, column_name, comment FROM duckdb_columns() WHERE schema_name = $1`,
          [schema],
        );
        return reader.getRowObjectsJS() as unknown as StoredComment[];
      }),
    qualifiedName: (schema, table) => `"${schema}"."${schema}"."${table}"`,
    execute: (schema, statement) =>
      withConnection(schema, async (connection) => void (await connection.run(statement))),
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
