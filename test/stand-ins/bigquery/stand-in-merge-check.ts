/**
 * What BigQuery refuses in a MERGE and DuckDB runs anyway: a target row matched by several
 * source rows ("UPDATE/MERGE must match at most one source row for each target row"), and a
 * source column assigned to a target column of another type.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { bigqueryType } from './stand-in-cells.ts';
import type { FieldResource } from './stand-in-resources.ts';
import { fromDuckdb, invalidQuery } from './stand-in-errors.ts';

const MULTI_MATCH = 'UPDATE/MERGE must match at most one source row for each target row';

/** A MERGE already rewritten for DuckDB (`"dataset"."table"` names). */
export interface ParsedMerge {
  target: { dataset: string; table: string };
  source: string;
  condition: string;
  /** Whether a WHEN MATCHED clause can change a matched row. */
  changesMatched: boolean;
  /** Target columns assigned straight from a source column (`col = S.col`, `INSERT ... VALUES (S.col)`). */
  assignments: { column: string; sourceColumn: string }[];
}

export function parseMerge(sql: string): ParsedMerge | undefined {
  const m =
    /^\s*MERGE\s+(?:INTO\s+)?"(\w+)"\."(\w+)"\s+(?:AS\s+)?T\s+USING\s+([\s\S]+?)\s+(?:AS\s+)?S\s+ON\s+([\s\S]+?)\s+WHEN\s/i.exec(
      sql,
    );
  if (!m) return undefined;
  const assignments: ParsedMerge['assignments'] = [];
  for (const set of sql.matchAll(/"(\w+)"\s*=\s*S\."(\w+)"(?=\s*(?:,|\n|$|WHEN))/g))
    assignments.push({ column: set[1]!, sourceColumn: set[2]! });
  const insert = /INSERT\s*\(([^)]*)\)\s*VALUES\s*\(([\s\S]*)\)\s*$/i.exec(sql);
  if (insert) {
    const columns = insert[1]!.split(',').map((c) => c.trim().replaceAll('"', ''));
    const values = splitTopLevel(insert[2]!);
    columns.forEach((column, i) => {
      const direct = /^S\."(\w+)"$/.exec(values[i]?.trim() ?? '');
      if (direct) assignments.push({ column, sourceColumn: direct[1]! });
    });
  }
  return {
    target: { dataset: m[1]!, table: m[2]! },
    source: m[3]!,
    condition: m[4]!,
    changesMatched: /\bWHEN\s+MATCHED\b/i.test(sql),
    assignments,
  };
}

/**
 * Refuses what BigQuery refuses, on the job's own snapshot; returns how many target rows the
 * MERGE matches (a MERGE that matches none only inserts, which never conflicts).
 */
export async function checkMerge(
  connection: DuckDBConnection,
  merge: ParsedMerge,
  targetFields: readonly FieldResource[],
): Promise<number> {
  const { target, source, condition } = merge;
  const matches = await connection
    .runAndReadAll(
      `SELECT COUNT(*) AS rows, COUNT(*) FILTER (WHERE n > 1) AS multi FROM (SELECT COUNT(*) AS n FROM "${target.dataset}"."${target.table}" AS T JOIN ${source} AS S ON ${condition} GROUP BY T.rowid)`,
    )
    .catch((error: unknown) => {
      throw fromDuckdb(error);
    });
  const [rows, multi] = (matches.getRows()[0] ?? [0, 0]).map(Number) as [number, number];
  if (multi > 0) throw invalidQuery(MULTI_MATCH);
  const sourceShape = await connection.runAndReadAll(`SELECT S.* FROM ${source} AS S LIMIT 0`);
  const sourceTypes = new Map(
    sourceShape.columnNames().map((name, i) => [name, bigqueryType(sourceShape.columnTypes()[i]!)]),
  );
  for (const { column, sourceColumn } of merge.assignments) {
    const to = targetFields.find((f) => f.name === column);
    const from = sourceTypes.get(sourceColumn);
    if (!to || !from) continue;
    if (to.type !== from && !(to.type === 'FLOAT64' && from === 'INT64')) {
      throw invalidQuery(`Value of type ${from} cannot be assigned to ${column}, which has type ${to.type}`);
    }
  }
  return rows;
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
