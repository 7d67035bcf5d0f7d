/**
 * The data side of the BigQuery stand-in: a catalog of datasets and tables (the table
 * resources BigQuery would return) over an in-memory DuckDB that holds the rows. It enforces
 * what BigQuery enforces and DuckDB does not: a MERGE source that matches a target row
 * several times, a value assigned to a column of another type, unknown fields in a load.
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { BigqueryFault, duplicate, fromDuckdb, invalid, invalidQuery, notFound } from './stand-in-errors.ts';
import { ParameterError, duckdbType, referencedTables, toDuckdb, type RestQueryParameter } from './stand-in-sql.ts';
import { beyondMicroseconds, loadTimestampMessage } from './stand-in-timestamps.ts';

export interface FieldResource {
  name: string;
  type: string;
  mode?: string;
}

export interface TableResource {
  tableReference: { projectId: string; datasetId: string; tableId: string };
  schema: { fields: FieldResource[] };
  timePartitioning?: { type: string; field?: string };
  clustering?: { fields: string[] };
  expirationTime?: string;
}

export interface QueryResult {
  schema: { fields: FieldResource[] };
  /** Cells encoded as the REST API does: strings, TIMESTAMP as int64 microseconds. */
  rows: { f: { v: string | null }[] }[];
  affectedRows?: number;
  bytesProcessed: number;
}

/**
 * A stand-in figure for `totalBytesProcessed`: BigQuery's minimum of 10 MB per table a query
 * references. Deterministic, so tests can assert what the run summary adds up.
 */
export const BYTES_PER_REFERENCED_TABLE = 10 * 1024 * 1024;

const MULTI_MATCH = 'UPDATE/MERGE must match at most one source row for each target row';

export class StandInEngine {
  readonly project: string;
  readonly datasets = new Map<string, { location: string }>();
  readonly tables = new Map<string, TableResource>();
  readonly #connection: DuckDBConnection;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(project: string, connection: DuckDBConnection) {
    this.project = project;
    this.#connection = connection;
  }

  static async create(project: string): Promise<StandInEngine> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`SET TimeZone = 'UTC'`);
    return new StandInEngine(project, connection);
  }

  close(): void {
    this.#connection.closeSync();
  }

  /** DuckDB runs one statement at a time; HTTP requests arrive concurrently. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async createDataset(dataset: string, location: string): Promise<void> {
    if (this.datasets.has(dataset)) throw duplicate(`Dataset ${this.project}:${dataset}`);
    await this.#serial(() => this.#connection.run(`CREATE SCHEMA "${dataset}"`));
    this.datasets.set(dataset, { location });
  }

  dataset(dataset: string): { location: string } {
    const found = this.datasets.get(dataset);
    if (!found) throw notFound(`Dataset ${this.project}:${dataset}`);
    return found;
  }

  table(dataset: string, table: string): TableResource {
    this.dataset(dataset);
    const found = this.tables.get(`${dataset}.${table}`);
    if (!found) throw notFound(`Table ${this.project}:${dataset}.${table}`);
    return found;
  }

  async createTable(dataset: string, resource: TableResource): Promise<TableResource> {
    this.dataset(dataset);
    const table = resource.tableReference.tableId;
    if (this.tables.has(`${dataset}.${table}`)) throw duplicate(`Table ${this.project}:${dataset}.${table}`);
    const fields = resource.schema?.fields ?? [];
    for (const name of [resource.timePartitioning?.field, ...(resource.clustering?.fields ?? [])]) {
      if (name !== undefined && !fields.some((f) => f.name === name)) throw invalid(`The field specified for partitioning or clustering cannot be found in the schema: ${name}`);
    }
    const columns = fields.map((f) => `"${f.name}" ${duckdbType(f.type)}${f.mode === 'REQUIRED' ? ' NOT NULL' : ''}`);
    await this.#serial(() => this.#connection.run(`CREATE TABLE "${dataset}"."${table}" (${columns.join(', ')})`));
    const stored: TableResource = { ...resource, tableReference: { projectId: this.project, datasetId: dataset, tableId: table } };
    this.tables.set(`${dataset}.${table}`, stored);
    return stored;
  }

  /** `tables.patch` with a schema: BigQuery accepts only appended NULLABLE fields. */
  async patchTable(dataset: string, table: string, patch: Partial<TableResource>): Promise<TableResource> {
    const current = this.table(dataset, table);
    const fields = patch.schema?.fields;
    if (!fields) return current;
    const old = current.schema.fields;
    for (const field of old) {
      const kept = fields.find((f) => f.name === field.name);
      if (!kept) throw invalid(`Provided Schema does not match Table ${this.project}:${dataset}.${table}. Field ${field.name} is missing in new schema`);
      if (kept.type !== field.type) throw invalid(`Provided Schema does not match Table ${this.project}:${dataset}.${table}. Field ${field.name} has changed type from ${field.type} to ${kept.type}`);
    }
    const added = fields.filter((f) => !old.some((o) => o.name === f.name));
    for (const field of added) {
      if (field.mode === 'REQUIRED') throw invalid(`Provided Schema does not match Table ${this.project}:${dataset}.${table}. Cannot add required fields to an existing schema. (field: ${field.name})`);
    }
    for (const field of added) {
      await this.#serial(() => this.#connection.run(`ALTER TABLE "${dataset}"."${table}" ADD COLUMN "${field.name}" ${duckdbType(field.type)}`));
    }
    current.schema = { fields: [...old, ...added] };
    return current;
  }

  async deleteTable(dataset: string, table: string): Promise<void> {
    this.table(dataset, table);
    await this.#serial(() => this.#connection.run(`DROP TABLE "${dataset}"."${table}"`));
    this.tables.delete(`${dataset}.${table}`);
  }

  /**
   * A load job's data: NDJSON appended to the table. Rejects fields the table does not have
   * (BigQuery does unless `ignoreUnknownValues`) and values DuckDB cannot convert.
   */
  async load(dataset: string, table: string, ndjson: Buffer): Promise<number> {
    const fields = this.table(dataset, table).schema.fields;
    const known = new Set(fields.map((f) => f.name));
    const timestamps = fields.filter((f) => f.type === 'TIMESTAMP').map((f) => f.name);
    const lines = ndjson.toString('utf8').split('\n').filter((line) => line.trim() !== '');
    let position = 0;
    lines.forEach((line, i) => {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw invalid(`Error while reading data, error message: JSON table encountered too many errors, giving up. Rows: ${i + 1}; errors: 1. JSON parsing error in row starting at position ${i}`);
      }
      for (const key of Object.keys(record)) {
        if (!known.has(key)) throw invalid(`Error while reading data, error message: JSON parsing error in row starting at position 0: No such field: ${key}.`);
      }
      for (const field of timestamps) {
        const value = record[field];
        if (typeof value === 'string' && beyondMicroseconds(value)) throw invalid(loadTimestampMessage(position, field, value));
      }
      position += Buffer.byteLength(line) + 1;
    });
    if (!lines.length) return 0;
    const file = path.join(os.tmpdir(), `bq-stand-in-${randomUUID()}.ndjson`);
    await writeFile(file, lines.join('\n') + '\n');
    const columns = fields.map((f) => `"${f.name}": '${duckdbType(f.type)}'`).join(', ');
    const names = fields.map((f) => `"${f.name}"`).join(', ');
    try {
      await this.#serial(() =>
        this.#connection.run(
          `INSERT INTO "${dataset}"."${table}" (${names}) SELECT ${names} FROM read_json('${file}', format = 'newline_delimited', columns = {${columns}})`,
        ),
      );
    } catch (error) {
      throw invalid(`Error while reading data, error message: ${fromDuckdb(error).message}`);
    } finally {
      await rm(file, { force: true });
    }
    return lines.length;
  }

  async query(sql: string, parameters: readonly RestQueryParameter[] = []): Promise<QueryResult> {
    const refs = referencedTables(sql);
    for (const ref of refs) this.table(ref.dataset, ref.table);
    let duck: string;
    try {
      duck = toDuckdb(sql, parameters);
    } catch (error) {
      if (error instanceof ParameterError) throw invalidQuery(error.message);
      throw error;
    }
    return this.#serial(async () => {
      const merge = parseMerge(duck);
      if (merge) await this.#checkMerge(merge);
      let reader;
      try {
        reader = await this.#connection.runAndReadAll(duck);
      } catch (error) {
        throw error instanceof BigqueryFault ? error : fromDuckdb(error);
      }
      const bytesProcessed = new Set(refs.map((r) => `${r.dataset}.${r.table}`)).size * BYTES_PER_REFERENCED_TABLE;
      const names = reader.columnNames();
      if (/^\s*(MERGE|INSERT|UPDATE|DELETE)\b/i.test(sql)) {
        const count = reader.getRows()[0]?.[0];
        return { schema: { fields: [] }, rows: [], affectedRows: Number(count ?? 0), bytesProcessed };
      }
      const types = reader.columnTypes();
      const fields = names.map((name, i) => ({ name, type: bigqueryType(types[i]!), mode: 'NULLABLE' }));
      const rows = reader.getRows().map((row) => ({ f: row.map((value) => ({ v: encodeCell(value) })) }));
      return { schema: { fields }, rows, bytesProcessed };
    });
  }

  /** BigQuery refuses a MERGE that matches a target row twice, and assignments across types. */
  async #checkMerge(merge: ParsedMerge): Promise<void> {
    const { target, source, condition } = merge;
    const multi = await this.#connection.runAndReadAll(
      `SELECT COUNT(*) FROM (SELECT 1 FROM ${target} AS T JOIN ${source} AS S ON ${condition} GROUP BY T.rowid HAVING COUNT(*) > 1)`,
    ).catch((error: unknown) => {
      throw fromDuckdb(error);
    });
    if (Number(multi.getRows()[0]?.[0] ?? 0) > 0) throw invalidQuery(MULTI_MATCH);
    const [dataset, table] = target.split('.').map((part) => part.replaceAll('"', ''));
    const targetFields = this.table(dataset!, table!).schema.fields;
    const sourceShape = await this.#connection.runAndReadAll(`SELECT S.* FROM ${source} AS S LIMIT 0`);
    const sourceTypes = new Map(sourceShape.columnNames().map((name, i) => [name, bigqueryType(sourceShape.columnTypes()[i]!)]));
    for (const { column, sourceColumn } of merge.assignments) {
      const to = targetFields.find((f) => f.name === column);
      const from = sourceTypes.get(sourceColumn);
      if (!to || !from) continue;
      if (to.type !== from && !(to.type === 'FLOAT64' && from === 'INT64')) {
        throw invalidQuery(`Value of type ${from} cannot be assigned to ${column}, which has type ${to.type}`);
      }
    }
  }
}

interface ParsedMerge {
  target: string;
  source: string;
  condition: string;
  /** Target columns assigned straight from a source column (`col = S.col`, `INSERT ... VALUES (S.col)`). */
  assignments: { column: string; sourceColumn: string }[];
}

function parseMerge(sql: string): ParsedMerge | undefined {
  const m = /^\s*MERGE\s+(?:INTO\s+)?("\w+"\."\w+")\s+(?:AS\s+)?T\s+USING\s+([\s\S]+?)\s+(?:AS\s+)?S\s+ON\s+([\s\S]+?)\s+WHEN\s/i.exec(sql);
  if (!m) return undefined;
  const assignments: ParsedMerge['assignments'] = [];
  for (const set of sql.matchAll(/"(\w+)"\s*=\s*S\."(\w+)"(?=\s*(?:,|\n|$|WHEN))/g)) assignments.push({ column: set[1]!, sourceColumn: set[2]! });
  const insert = /INSERT\s*\(([^)]*)\)\s*VALUES\s*\(([\s\S]*)\)\s*$/i.exec(sql);
  if (insert) {
    const columns = insert[1]!.split(',').map((c) => c.trim().replaceAll('"', ''));
    const values = splitTopLevel(insert[2]!);
    columns.forEach((column, i) => {
      const direct = /^S\."(\w+)"$/.exec(values[i]?.trim() ?? '');
      if (direct) assignments.push({ column, sourceColumn: direct[1]! });
    });
  }
  return { target: m[1]!, source: m[2]!, condition: m[3]!, assignments };
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of list) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

function bigqueryType(type: DuckDBType): string {
  if (type.alias === 'JSON') return 'JSON';
  const name = type.toString();
  if (name === 'VARCHAR') return 'STRING';
  if (/^(BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER)$/.test(name)) return 'INT64';
  if (/^(DOUBLE|FLOAT|DECIMAL.*)$/.test(name)) return 'FLOAT64';
  if (name === 'BOOLEAN') return 'BOOL';
  if (name.startsWith('TIMESTAMP')) return 'TIMESTAMP';
  return 'STRING';
}

function encodeCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'micros' in value) return String((value as { micros: bigint }).micros);
  return String(value);
}
