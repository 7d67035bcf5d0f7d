import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll } from 'vitest';
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { normalizeRow } from './normalize.ts';
import { runConformanceSuite } from './suite.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-conformance-duckdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Each file is named like its schema, as with the default config (aivis.duckdb, schema aivis):
// DuckDB then calls the catalog by the schema's name too, so only a three-part name is unambiguous.
const file = (schema: string) => path.join(dir, `${schema}.duckdb`);

runConformanceSuite({
  name: 'duckdb',
  create: async (schema) => createDuckdbDestination({ type: 'duckdb', path: file(schema), schema }, { logger: silentLogger }),
  // The suite's own reads, through a second connection to the same in-process instance.
  async readRows(_destination, schema, table) {
    const instance = await DuckDBInstance.fromCache(file(schema));
    const connection = await instance.connect();
    try {
      const columns = table.columns.map((c) => (c.type === 'timestamp' || c.type === 'json' ? `CAST("${c.name}" AS VARCHAR) AS "${c.name}"` : `"${c.name}"`));
      const reader = await connection.runAndReadAll(`SELECT ${columns.join(', ')} FROM "${schema}"."${schema}"."${table.name}" ORDER BY ${table.primaryKey.map((k) => `"${k}"`).join(', ')}`);
      return reader.getRowObjectsJS().map((row) => normalizeRow(table, row));
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  },
});
