/**
 * The data side of the BigQuery stand-in: a catalog of datasets and tables (the table
 * resources BigQuery would return) over a DuckDB (in memory, or in a file for large tables)
 * that holds the rows. It enforces
 * what BigQuery enforces and DuckDB does not: a MERGE source that matches a target row
 * several times, a value assigned to a column of another type, unknown fields in a load.
 *
 * Every query job runs in its own DuckDB transaction on its own connection, so jobs that
 * arrive together see snapshots and conflict the way BigQuery's do
 * (`stand-in-dml-concurrency.ts`); `beforeCommit` lets a test hold a job between its work and
 * its commit. Each job is billed as BigQuery bills it (`stand-in-billing.ts`).
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, DuckDBScalarFunction, StatementType, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { bytesProcessed as billedBytes, type ReferencedTable } from './stand-in-billing.ts';
import { encodeCell, type RestCell, resultField } from './stand-in-cells.ts';
import {
  DmlScheduler,
  isDuckdbConflict,
  serializationFailure,
  type MutationTicket,
} from './stand-in-dml-concurrency.ts';
import { BigqueryFault, duplicate, fromDuckdb, invalid, invalidQuery, notFound } from './stand-in-errors.ts';
import { JsonValueError, bigqueryJson, type WideNumberMode } from './stand-in-json.ts';
import { checkMerge, parseMerge } from './stand-in-merge-check.ts';
import {
  JSON_MACROS,
  ParameterError,
  duckdbType,
  parseCreateTableAs,
  referencedTables,
  toDuckdb,
  type CreateTableAs,
  type RestQueryParameter,
} from './stand-in-sql.ts';
import { beyondMicroseconds, loadTimestampMessage } from './stand-in-timestamps.ts';
import type { FieldResource, TableResource } from './stand-in-resources.ts';

export interface QueryResult {
  schema: { fields: FieldResource[] };
  /** Cells encoded as the REST API does: strings, TIMESTAMP as int64 microseconds. */
  rows: { f: { v: RestCell }[] }[];
  affectedRows?: number;
  bytesProcessed: number;
}

export interface EngineOptions {
  /** Reruns of a mutating statement that lost a conflict, before it fails (BigQuery: 3). */
  dmlReruns?: number;
  /** A DuckDB file instead of memory, for tables of millions of rows (DuckDB compresses and spills them). */
  databaseFile?: string;
}

export interface QueryControl {
  /** Runs after the job's work, before its commit; a test may hold the job here. */
  beforeCommit?: () => Promise<void>;
  /** Runs when a mutation lost a conflict, before it waits for the winner to finish. */
  onConflict?: () => void;
}

const MUTATING = /^\s*(UPDATE|DELETE|MERGE)\b/i;
/** BigQuery's `statistics.query.statementType` for what DuckDB prepares. */
const DRY_RUN_TYPES: Readonly<Record<string, string>> = {
  SELECT: 'SELECT',
  INSERT: 'INSERT',
  UPDATE: 'UPDATE',
  DELETE: 'DELETE',
  MERGE_INTO: 'MERGE',
  CREATE: 'CREATE_TABLE',
  DROP: 'DROP_TABLE',
  ALTER: 'ALTER_TABLE',
  EXPORT: 'EXPORT_DATA',
  CALL: 'CALL',
};
const DML = /^\s*(MERGE|INSERT|UPDATE|DELETE)\b/i;
/** What `#attempt` returns when the job lost a conflict and may be rerun. */
const CONFLICT = Symbol('conflict');

export class StandInEngine {
  readonly project: string;
  readonly datasets = new Map<string, { location: string }>();
  readonly tables = new Map<string, TableResource>();
  readonly #instance: DuckDBInstance;
  /** Catalog changes (schemas, tables, columns) go one at a time through this connection. */
  readonly #catalog: DuckDBConnection;
  readonly #dml: DmlScheduler;
  /** Tables a `CREATE TABLE ... AS` is committing, until it has. */
  readonly #creating = new Map<string, Promise<unknown>>();
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(project: string, instance: DuckDBInstance, catalog: DuckDBConnection, options: EngineOptions) {
    this.project = project;
    this.#instance = instance;
    this.#catalog = catalog;
    this.#dml = new DmlScheduler(options.dmlReruns ?? 3);
  }

  static async create(project: string, options: EngineOptions = {}): Promise<StandInEngine> {
    const instance = await DuckDBInstance.create(options.databaseFile ?? ':memory:');
    const catalog = await instance.connect();
    await catalog.run(`SET GLOBAL TimeZone = 'UTC'`);
    catalog.registerScalarFunction(parseJsonFunction());
    for (const macro of JSON_MACROS) await catalog.run(`CREATE MACRO ${macro}`);
    return new StandInEngine(project, instance, catalog, options);
  }

  close(): void {
    this.#catalog.closeSync();
    this.#instance.closeSync();
  }

  /** Catalog changes one at a time; HTTP requests arrive concurrently. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async createDataset(dataset: string, location: string): Promise<void> {
    if (this.datasets.has(dataset)) throw duplicate(`Dataset ${this.project}:${dataset}`);
    await this.#serial(() => this.#catalog.run(`CREATE SCHEMA "${dataset}"`));
    this.datasets.set(dataset, { location });
  }

  /** `datasets.delete`: refused while the dataset holds tables unless `deleteContents`, as BigQuery does. */
  async deleteDataset(dataset: string, deleteContents: boolean): Promise<void> {
    this.dataset(dataset);
    const held = [...this.tables.keys()].filter((key) => key.startsWith(`${dataset}.`));
    if (held.length && !deleteContents)
      throw new BigqueryFault(400, 'resourceInUse', `Dataset ${this.project}:${dataset} is still in use`);
    await this.#serial(() => this.#catalog.run(`DROP SCHEMA "${dataset}" CASCADE`));
    for (const key of held) this.tables.delete(key);
    this.datasets.delete(dataset);
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
    if (this.#exists(dataset, table)) throw duplicate(`Table ${this.project}:${dataset}.${table}`);
    checkDescriptions(resource);
    if (resource.view) return this.#createView(dataset, table, resource);
    const fields = resource.schema?.fields ?? [];
    for (const name of [resource.timePartitioning?.field, ...(resource.clustering?.fields ?? [])]) {
      if (name !== undefined && !fields.some((f) => f.name === name))
        throw invalid(`The field specified for partitioning or clustering cannot be found in the schema: ${name}`);
    }
    await this.#serial(() => this.#catalog.run(`CREATE TABLE "${dataset}"."${table}" (${columnDefinitions(fields)})`));
    const stored: TableResource = {
      ...resource,
      type: 'TABLE',
      tableReference: { projectId: this.project, datasetId: dataset, tableId: table },
    };
    this.tables.set(`${dataset}.${table}`, stored);
    return stored;
  }

  /**
   * A view: its query (BigQuery SQL, every table it reads must exist) becomes a DuckDB view,
   * and its schema is derived from the query, as BigQuery does; the fields keep no mode.
   */
  async #createView(dataset: string, table: string, resource: TableResource): Promise<TableResource> {
    const stored: TableResource = {
      ...resource,
      type: 'VIEW',
      tableReference: { projectId: this.project, datasetId: dataset, tableId: table },
      schema: { fields: await this.#replaceView(dataset, table, resource.view!.query, []) },
    };
    this.tables.set(`${dataset}.${table}`, stored);
    return stored;
  }

  /** (Re)creates the DuckDB view; returns its fields, with the descriptions of `kept` where names match. */
  async #replaceView(
    dataset: string,
    table: string,
    query: string,
    kept: readonly FieldResource[],
  ): Promise<FieldResource[]> {
    if (/^\s*SELECT\b/i.test(query) === false) throw invalidQuery('A view query must be a SELECT statement');
    for (const ref of referencedTables(query)) this.table(ref.dataset, ref.table);
    const duck = translated(() => toDuckdb(query));
    await this.#serial(() => this.#catalog.run(`CREATE OR REPLACE VIEW "${dataset}"."${table}" AS ${duck}`));
    const reader = await this.#catalog.runAndReadAll(`DESCRIBE "${dataset}"."${table}"`);
    return reader.getRowObjectsJS().map((row) => {
      const name = String(row.column_name);
      const description = kept.find((f) => f.name === name)?.description;
      return { name, type: bigqueryTypeOf(String(row.column_type)), ...(description ? { description } : {}) };
    });
  }

  #exists(dataset: string, table: string): boolean {
    return this.tables.has(`${dataset}.${table}`) || this.#creating.has(`${dataset}.${table}`);
  }

  /** `tables.patch` with a schema: BigQuery accepts only appended NULLABLE fields. */
  async patchTable(dataset: string, table: string, patch: Partial<TableResource>): Promise<TableResource> {
    const current = this.table(dataset, table);
    checkDescriptions(patch);
    if (patch.view && current.type !== 'VIEW')
      throw invalid(`Cannot change a table into a view: ${this.project}:${dataset}.${table}`);
    if (patch.description !== undefined) current.description = patch.description;
    if (patch.view) {
      current.view = patch.view;
      current.schema = { fields: await this.#replaceView(dataset, table, patch.view.query, current.schema.fields) };
    }
    const fields = patch.schema?.fields;
    if (!fields) return current;
    const old = current.schema.fields;
    for (const field of old) {
      const kept = fields.find((f) => f.name === field.name);
      if (!kept)
        throw invalid(
          `Provided Schema does not match Table ${this.project}:${dataset}.${table}. Field ${field.name} is missing in new schema`,
        );
      if (kept.type !== field.type)
        throw invalid(
          `Provided Schema does not match Table ${this.project}:${dataset}.${table}. Field ${field.name} has changed type from ${field.type} to ${kept.type}`,
        );
    }
    const added = fields.filter((f) => !old.some((o) => o.name === f.name));
    if (current.type === 'VIEW' && added.length)
      throw invalid(
        `Provided Schema does not match Table ${this.project}:${dataset}.${table}. Cannot add fields (field: ${added[0]!.name})`,
      );
    for (const field of added) {
      if (field.mode === 'REQUIRED')
        throw invalid(
          `Provided Schema does not match Table ${this.project}:${dataset}.${table}. Cannot add required fields to an existing schema. (field: ${field.name})`,
        );
    }
    for (const field of added) {
      await this.#serial(() =>
        this.#catalog.run(`ALTER TABLE "${dataset}"."${table}" ADD COLUMN "${field.name}" ${columnType(field)}`),
      );
    }
    // Descriptions are metadata: a patch changes them without touching the rows.
    const described = old.map((o) => {
      const description = fields.find((f) => f.name === o.name)?.description;
      return description === undefined ? o : { ...o, description };
    });
    current.schema = { fields: [...described, ...added] };
    return current;
  }

  async deleteTable(dataset: string, table: string): Promise<void> {
    const kind = this.table(dataset, table).type === 'VIEW' ? 'VIEW' : 'TABLE';
    await this.#serial(() => this.#catalog.run(`DROP ${kind} "${dataset}"."${table}"`));
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
    const lines = ndjson
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    let position = 0;
    lines.forEach((line, i) => {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw invalid(
          `Error while reading data, error message: JSON table encountered too many errors, giving up. Rows: ${i + 1}; errors: 1. JSON parsing error in row starting at position ${i}`,
        );
      }
      for (const key of Object.keys(record)) {
        if (!known.has(key))
          throw invalid(
            `Error while reading data, error message: JSON parsing error in row starting at position 0: No such field: ${key}.`,
          );
      }
      for (const field of timestamps) {
        const value = record[field];
        if (typeof value === 'string' && beyondMicroseconds(value))
          throw invalid(loadTimestampMessage(position, field, value));
      }
      position += Buffer.byteLength(line) + 1;
    });
    if (!lines.length) return 0;
    const file = path.join(os.tmpdir(), `bq-stand-in-${randomUUID()}.ndjson`);
    await writeFile(file, `${lines.join('\n')}\n`);
    const columns = fields.map((f) => `"${f.name}": '${columnType(f)}'`).join(', ');
    const names = fields.map((f) => `"${f.name}"`).join(', ');
    try {
      const connection = await this.#instance.connect();
      try {
        await connection.run(
          `INSERT INTO "${dataset}"."${table}" (${names}) SELECT ${names} FROM read_json('${file}', format = 'newline_delimited', columns = {${columns}})`,
        );
      } finally {
        connection.closeSync();
      }
    } catch (error) {
      throw invalid(`Error while reading data, error message: ${fromDuckdb(error).message}`);
    } finally {
      await rm(file, { force: true });
    }
    return lines.length;
  }

  /**
   * A dry run, as BigQuery answers `configuration.dryRun`: the statement is read and its tables
   * resolved, nothing runs. Its type is BigQuery's name for what DuckDB prepares (several
   * statements are a `SCRIPT`).
   */
  async dryRun(sql: string): Promise<string> {
    if (translated(() => parseCreateTableAs(sql))) return 'CREATE_TABLE_AS_SELECT';
    for (const ref of referencedTables(sql)) this.table(ref.dataset, ref.table);
    const duck = translated(() => toDuckdb(sql, []));
    const connection = await this.#instance.connect();
    try {
      const statements = await connection.extractStatements(duck);
      if (statements.count > 1) return 'SCRIPT';
      const prepared = await statements.prepare(0);
      const type = StatementType[prepared.statementType];
      prepared.destroySync();
      return DRY_RUN_TYPES[type ?? ''] ?? `${type}`;
    } catch (error) {
      throw error instanceof BigqueryFault ? error : fromDuckdb(error);
    } finally {
      connection.closeSync();
    }
  }

  async query(
    sql: string,
    parameters: readonly RestQueryParameter[] = [],
    control: QueryControl = {},
  ): Promise<QueryResult> {
    const create = translated(() => parseCreateTableAs(sql));
    if (create) return this.#createTableAs(create, parameters, control);
    const refs = referencedTables(sql);
    for (const ref of refs) this.table(ref.dataset, ref.table);
    const duck = translated(() => toDuckdb(sql, parameters));
    // An INSERT writes its target without reading it: only what its query reads is billed.
    const read = /^\s*INSERT\b/i.test(sql) ? refs.slice(1) : refs;
    const job: JobStatement = {
      sql,
      duck,
      parameters,
      tables: read.map((ref) => ({ resource: this.table(ref.dataset, ref.table), alias: ref.alias })),
    };
    if (!MUTATING.test(sql)) return (await this.#attempt(job, control)) as QueryResult;
    const target = `${this.project}:${refs[0]!.dataset}.${refs[0]!.table}`;
    const ticket = await this.#dml.begin(target);
    try {
      for (let reruns = 0; ; reruns++) {
        const outcome = await this.#attempt(job, control, ticket);
        if (outcome !== CONFLICT) return outcome;
        control.onConflict?.();
        // A conflict is decided when the other statement commits: wait for it either way.
        await ticket.othersFinished();
        if (reruns >= this.#dml.reruns) throw serializationFailure(target);
        ticket.renew();
      }
    } finally {
      ticket.finish();
    }
  }

  /** One run of a statement in its own transaction; CONFLICT when a mutation lost to another. */
  async #attempt(
    { sql, duck, parameters, tables }: JobStatement,
    control: QueryControl,
    ticket?: MutationTicket,
  ): Promise<QueryResult | typeof CONFLICT> {
    const connection = await this.#instance.connect();
    let open = false;
    const rollback = async () => {
      if (open) await connection.run('ROLLBACK').catch(() => undefined);
      open = false;
    };
    try {
      await connection.run('BEGIN TRANSACTION');
      open = true;
      let result: QueryResult;
      let changes: boolean;
      try {
        // Billed on the snapshot the statement reads, before it changes anything.
        const bytesProcessed = await billedBytes(connection, sql, uniqueTables(tables), parameters);
        const merge = parseMerge(duck);
        const matched = merge
          ? await checkMerge(connection, merge, this.table(merge.target.dataset, merge.target.table).schema.fields)
          : 0;
        const reader = await connection.runAndReadAll(duck);
        if (DML.test(sql)) {
          const affectedRows = Number(reader.getRows()[0]?.[0] ?? 0);
          result = { schema: { fields: [] }, rows: [], affectedRows, bytesProcessed };
          // A MERGE whose matched rows it can change mutates; one that only inserts does not.
          changes = merge ? merge.changesMatched && matched > 0 : affectedRows > 0;
        } else {
          const types = reader.columnTypes();
          const fields = reader.columnNames().map((name, i) => resultField(name, types[i]!));
          result = {
            schema: { fields },
            rows: reader.getRows().map((row) => ({ f: row.map((value, i) => ({ v: encodeCell(value, fields[i]!) })) })),
            bytesProcessed,
          };
          changes = false;
        }
      } catch (error) {
        await rollback();
        if (ticket && isDuckdbConflict(error)) return CONFLICT;
        throw error instanceof BigqueryFault ? error : fromDuckdb(error);
      }
      await control.beforeCommit?.();
      if (ticket && changes && ticket.changedSince()) {
        await rollback();
        return CONFLICT;
      }
      try {
        await connection.run('COMMIT');
        open = false;
      } catch (error) {
        await rollback();
        if (ticket && isDuckdbConflict(error)) return CONFLICT;
        throw fromDuckdb(error);
      }
      if (ticket && changes) ticket.committedChange();
      return result;
    } finally {
      await rollback();
      connection.closeSync();
    }
  }

  /**
   * `CREATE TABLE ... AS SELECT`: the table appears with its rows at the job's commit, or not
   * at all. A table that exists by then (another job created it meanwhile) is left alone with
   * IF NOT EXISTS and refused ("Already Exists") without.
   */
  async #createTableAs(
    create: CreateTableAs,
    parameters: readonly RestQueryParameter[],
    control: QueryControl,
  ): Promise<QueryResult> {
    const { dataset, table, ifNotExists, fields } = create;
    this.dataset(dataset);
    for (const ref of referencedTables(create.query)) this.table(ref.dataset, ref.table);
    const select = translated(() => toDuckdb(create.query, parameters));
    const done: QueryResult = { schema: { fields: [] }, rows: [], bytesProcessed: 0 };
    const existing = () => {
      if (ifNotExists) return done;
      throw duplicate(`Table ${this.project}:${dataset}.${table}`);
    };
    const key = `${dataset}.${table}`;
    // Another job committing the same table first wins; this one sees it once it has.
    const settled = () => this.#creating.get(key)?.catch(() => undefined);
    await settled();
    if (this.tables.has(key)) return existing();
    await control.beforeCommit?.();
    await settled();
    if (this.tables.has(key)) return existing();
    const creation = this.#serial(async () => {
      await this.#catalog.run('BEGIN TRANSACTION');
      try {
        await this.#catalog.run(`CREATE TABLE "${dataset}"."${table}" (${columnDefinitions(fields)})`);
        await this.#catalog.run(`INSERT INTO "${dataset}"."${table}" ${select}`);
        await this.#catalog.run('COMMIT');
      } catch (error) {
        await this.#catalog.run('ROLLBACK');
        throw fromDuckdb(error);
      }
      this.tables.set(key, {
        tableReference: { projectId: this.project, datasetId: dataset, tableId: table },
        schema: { fields },
      });
    });
    this.#creating.set(key, creation);
    try {
      await creation;
    } finally {
      this.#creating.delete(key);
    }
    return done;
  }
}

/** A query job's statement, as sent and as DuckDB runs it, with the tables it references. */
interface JobStatement {
  readonly sql: string;
  readonly duck: string;
  readonly parameters: readonly RestQueryParameter[];
  readonly tables: readonly ReferencedTable[];
}

/** A table referenced twice (a self-join, a subquery on the target) is billed once. */
function uniqueTables(tables: readonly ReferencedTable[]): ReferencedTable[] {
  const seen = new Map<TableResource, ReferencedTable>();
  for (const table of tables) if (!seen.has(table.resource)) seen.set(table.resource, table);
  return [...seen.values()];
}

/** Runs a SQL rewrite, turning its refusals into BigQuery's invalidQuery. */
/** BigQuery's limits on descriptions (tables and views 16,384 characters, fields 1,024). */
const MAX_TABLE_DESCRIPTION = 16_384;
const MAX_FIELD_DESCRIPTION = 1_024;

function checkDescriptions(resource: Partial<TableResource>): void {
  if ((resource.description?.length ?? 0) > MAX_TABLE_DESCRIPTION)
    throw invalid(`Table description exceeds the maximum length of ${MAX_TABLE_DESCRIPTION} characters`);
  for (const field of resource.schema?.fields ?? []) {
    if ((field.description?.length ?? 0) > MAX_FIELD_DESCRIPTION)
      throw invalid(
        `Field ${field.name}: description exceeds the maximum length of ${MAX_FIELD_DESCRIPTION} characters`,
      );
  }
}

const BIGQUERY_TYPE_OF: Readonly<Record<string, string>> = {
  VARCHAR: 'STRING',
  BIGINT: 'INT64',
  DOUBLE: 'FLOAT64',
  BOOLEAN: 'BOOL',
  'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP',
  JSON: 'JSON',
};

/** A DuckDB column type of a view as BigQuery would report it. */
function bigqueryTypeOf(duckdb: string): string {
  const type = BIGQUERY_TYPE_OF[duckdb];
  if (!type) throw invalidQuery(`The stand-in has no BigQuery type for a view column of DuckDB type ${duckdb}`);
  return type;
}

function translated<T>(rewrite: () => T): T {
  try {
    return rewrite();
  } catch (error) {
    if (error instanceof ParameterError) throw invalidQuery(error.message);
    throw error;
  }
}

function columnDefinitions(fields: readonly FieldResource[]): string {
  return fields.map((f) => `"${f.name}" ${columnType(f)}${f.mode === 'REQUIRED' ? ' NOT NULL' : ''}`).join(', ');
}

/** A field's DuckDB column type: a REPEATED field is a list of its type. */
function columnType(field: FieldResource): string {
  return `${duckdbType(field.type)}${field.mode === 'REPEATED' ? '[]' : ''}`;
}

/** `bq_parse_json(text, mode)`: PARSE_JSON's value as BigQuery writes it back (`stand-in-json.ts`). */
function parseJsonFunction(): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: 'bq_parse_json',
    returnType: VARCHAR,
    parameterTypes: [VARCHAR, VARCHAR],
    mainFunction: (info, input, output) => {
      const texts = input.getColumnVector(0);
      const modes = input.getColumnVector(1);
      for (let row = 0; row < input.rowCount; row++) {
        const text = texts.getItem(row) as string | null;
        try {
          output.setItem(row, text === null ? null : bigqueryJson(text, modes.getItem(row) as WideNumberMode));
        } catch (error) {
          if (!(error instanceof JsonValueError)) throw error;
          info.setError(error.message);
          return;
        }
      }
      output.flush();
    },
  });
}
