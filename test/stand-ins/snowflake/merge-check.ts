/**
 * Snowflake fails a MERGE in which one target row matches several source rows (error 100090,
 * "Duplicate row detected during DML action"; ERROR_ON_NONDETERMINISTIC_MERGE defaults to
 * true). DuckDB applies such a MERGE silently, so the stand-in runs this check first: a
 * connector that forgets to deduplicate its staged rows fails here as it would on Snowflake.
 */
import { countPlaceholders, splitSql } from './sql-rewrite.ts';

/** The query that finds a target row matched by several source rows. */
export interface DuplicateCheck {
  /** A query returning a row iff some target row matches more than one source row. */
  readonly sql: string;
  /** How many of the MERGE's leading bind values the query uses. */
  readonly params: number;
}

/** Parses `MERGE INTO target [AS] t USING (source | name) [AS] s ON cond WHEN ...` (folded SQL). */
export function duplicateSourceCheck(mergeSql: string): DuplicateCheck | undefined {
  // Mask literals and quoted names (same length) so keywords and parentheses inside them are ignored.
  const masked = splitSql(mergeSql)
    .map((s) => (s.kind === 'code' ? s.text : s.text[0] + '_'.repeat(s.text.length - 2) + s.text[0]))
    .join('');
  const head = /^\s*MERGE\s+INTO\s+(\S+)\s+(?:AS\s+)?(\S+)\s+USING\s+/d.exec(masked);
  if (!head) return undefined;
  const sourceStart = head[0].length;
  const sourceEnd =
    masked[sourceStart] === '(' ? matchingParen(masked, sourceStart) + 1 : masked.indexOf(' ', sourceStart);
  const tail = /^\s+(?:AS\s+)?(\S+)\s+ON\s+([\s\S]+?)\s+WHEN\s/d.exec(masked.slice(sourceEnd));
  if (!tail) return undefined;
  // Masking keeps every offset, so group positions in `masked` are positions in `mergeSql`.
  const group = (m: RegExpExecArray, n: number, offset = 0) => {
    const [start, end] = m.indices![n]!;
    return mergeSql.slice(start + offset, end + offset);
  };
  const target = group(head, 1);
  const targetAlias = group(head, 2);
  const source = mergeSql.slice(sourceStart, sourceEnd);
  const sourceAlias = group(tail, 1, sourceEnd);
  const condition = group(tail, 2, sourceEnd);
  return {
    sql: `SELECT 1 FROM ${target} AS ${targetAlias} JOIN ${source} AS ${sourceAlias} ON ${condition} GROUP BY ${targetAlias}.ROWID HAVING COUNT(*) > 1 LIMIT 1`,
    params: countPlaceholders(source) + countPlaceholders(condition),
  };
}

function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  throw new Error('unbalanced parentheses in MERGE source');
}
