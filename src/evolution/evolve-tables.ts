/**
 * The run's schema evolution step (docs/served-contract.md#schema-evolution), between "ensure the tables" and
 * the first read: under `evolve`, each table gains the columns the document in force declares
 * and rows already there are filled from their `_raw`; the returned `TableEvolution`s tell the
 * loader which columns to write. Under `freeze` nothing is added; the columns a table has are
 * written as under `evolve`.
 *
 * Adding is idempotent and safe when runs of other workspaces or shards evolve the same table
 * at once: every destination adds "if not exists" (BigQuery: a patch guarded by the table's
 * etag), and the fill writes what the loader writes, so two fills agree. A role that may not
 * alter a table (it does not own it) costs a warning: that table keeps its columns (frozen).
 */
import type { SchemaEvolutionMode } from '../../schemas/config.ts';
import type { Destination } from '../destination/destination.ts';
import type { CellValue, TableSpec } from '../destination/table-spec.ts';
import { DestinationError } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import { type DeclaredRecords, planEvolution, type TableEvolution } from './evolution-plan.ts';
import { evolvedCells } from './raw-cell.ts';

/** What the loader needs of a run's evolution: each table as it writes it, and the evolved cells of a row. */
export class RunEvolution {
  readonly #plans: ReadonlyMap<string, TableEvolution>;
  /** Columns this run added, by table: what the run summary and the log report. */
  readonly added: Readonly<Record<string, readonly string[]>>;

  constructor(plans: readonly TableEvolution[] = [], added: Readonly<Record<string, readonly string[]>> = {}) {
    this.#plans = new Map(plans.filter((p) => p.columns.length > 0).map((p) => [p.table.name, p]));
    this.added = added;
  }

  /** The tables that gained columns beyond the contract's, as the loader writes them. */
  get tables(): TableSpec[] {
    return [...this.#plans.values()].map((plan) => plan.table).filter((table, i, all) => all.indexOf(table) === i);
  }

  /** The table with the evolved columns the loader writes (the contract's own when none). */
  table(table: TableSpec): TableSpec {
    return this.#plans.get(table.name)?.table ?? table;
  }

  /** The evolved columns' cells of a row of `table` whose `_raw` is `raw`. */
  cells(table: TableSpec, raw: unknown): Readonly<Record<string, CellValue>> {
    const plan = this.#plans.get(table.name);
    return plan ? evolvedCells(plan.columns, raw) : {};
  }
}

export interface EvolveTablesInput {
  readonly destination: Destination;
  readonly tables: readonly TableSpec[];
  readonly mode: SchemaEvolutionMode;
  /** `schema_evolution_max_columns`: the most evolved columns one table may hold. */
  readonly maxColumns: number;
  /** The declared fields of the document in force. */
  readonly declared: DeclaredRecords;
  readonly logger: Logger;
}

/**
 * Adds and fills the evolved columns of `tables` (which exist already) and says what the loader
 * writes. Reads the columns each table has first: a column this run does not add is never filled.
 */
export async function evolveTables(input: EvolveTablesInput): Promise<RunEvolution> {
  const { destination, tables, declared, logger } = input;
  const existing = await destination.columnTypes(tables);
  const plans: TableEvolution[] = [];
  const added: Record<string, string[]> = {};
  for (const plan of planEvolution(tables, declared, existing, input.maxColumns)) {
    const stored = existing.get(plan.table.name);
    const missing = plan.columns.filter((c) => !stored?.has(c.column.name));
    if (input.mode === 'freeze') {
      plans.push(frozen(plan, stored));
      continue;
    }
    warnLeftInRaw(plan, input.maxColumns, logger);
    if (missing.length > 0) {
      try {
        await destination.ensureTables([plan.table]);
      } catch (error) {
        if (!(error instanceof DestinationError)) throw error;
        logger.warn('schema evolution: the table keeps its columns, its new fields stay in _raw', {
          table: plan.table.name,
          columns: missing.map((c) => c.column.name),
          error: error.message,
        });
        plans.push(frozen(plan, stored));
        continue;
      }
      added[plan.table.name] = missing.map((c) => c.column.name);
      logger.info('schema evolution: columns added', { table: plan.table.name, columns: added[plan.table.name] });
    }
    await destination.fillFromRaw(plan.table, plan.added);
    plans.push(plan);
  }
  return new RunEvolution(plans, added);
}

/** Fields named in a warning; the rest are counted. */
const NAMED_FIELDS = 20;

const fieldList = (fields: readonly string[]) =>
  fields.length > NAMED_FIELDS
    ? `${fields.slice(0, NAMED_FIELDS).join(', ')} and ${fields.length - NAMED_FIELDS} more`
    : fields.join(', ');

/** One warning per table and reason for the fields its plan leaves in `_raw`. */
function warnLeftInRaw(plan: TableEvolution, maxColumns: number, logger: Logger): void {
  const table = plan.table.name;
  if (plan.overCap.length > 0)
    logger.warn(
      `schema evolution: ${table} holds the most evolved columns allowed (schema_evolution_max_columns: ${maxColumns}); these fields stay in _raw: ${fieldList(plan.overCap)}`,
      { table },
    );
  if (plan.unnamable.length > 0)
    logger.warn(
      `schema evolution: these fields of ${table} have names no column can take (a NUL or a lone surrogate) and stay in _raw: ${fieldList(plan.unnamable)}`,
      { table },
    );
}

/**
 * The evolution of tables no destination holds (the protocol modes, docs/protocols.md#columns-the-served-contract-adds):
 * the same plan as `evolveTables` against tables that have exactly the contract's columns, so
 * the rows carry what a sync would add to them; nothing is added or filled.
 */
export function plannedEvolution(
  tables: readonly TableSpec[],
  mode: SchemaEvolutionMode,
  declared: DeclaredRecords,
  maxColumns: number,
): RunEvolution {
  const existing = new Map(tables.map((t) => [t.name, new Map(t.columns.map((c) => [c.name, c.type] as const))]));
  const plans = planEvolution(tables, declared, existing, maxColumns);
  return new RunEvolution(mode === 'freeze' ? plans.map((plan) => frozen(plan, existing.get(plan.table.name))) : plans);
}

/**
 * The plan of a table that keeps its columns (`freeze`, or a role that may not alter it): the
 * columns it has are still written, each with what its type holds (a field whose type changed
 * leaves the stream's own column NULL rather than failing the load); nothing is added.
 */
function frozen(plan: TableEvolution, stored: ReadonlyMap<string, unknown> | undefined): TableEvolution {
  const kept = plan.columns.filter((c) => stored?.has(c.column.name));
  const names = new Set(stored?.keys());
  return {
    table: { ...plan.table, columns: plan.table.columns.filter((c) => names.has(c.name)) },
    columns: kept,
    added: [],
    overCap: [],
    unnamable: [],
  };
}
