/**
 * Where Snowflake refuses ARRAY_CONSTRUCT (sql-rewrite.ts says how the stand-in makes arrays).
 * Snowflake evaluates a VALUES clause at compile time and refuses ARRAY_CONSTRUCT there
 * ("Invalid expression [...] in VALUES clause"; its VALUES reference: each expression must be a
 * constant): an array goes in with `INSERT INTO t SELECT ..., ARRAY_CONSTRUCT(...)`.
 */
import { arrayInValues } from './snowflake-errors.ts';
import { splitSql } from './sql-rewrite.ts';

/** Refuses an INSERT whose VALUES clause calls ARRAY_CONSTRUCT, as Snowflake does (error 002014). */
export function checkValuesClause(sql: string): void {
  const segments = splitSql(sql);
  let inValues = false;
  for (const [i, s] of segments.entries()) {
    if (s.kind !== 'code') continue;
    const values = /\bVALUES\b/i.exec(s.text);
    if (values) inValues = true;
    const call = inValues ? /\bARRAY_CONSTRUCT\s*\(/gi : undefined;
    if (call) call.lastIndex = values?.index ?? 0;
    const found = call?.exec(s.text);
    if (found) throw arrayInValues(callText(segments.slice(i), found.index));
  }
}

/** The text of the call starting at `start` of the first segment, to its closing parenthesis. */
function callText(segments: ReturnType<typeof splitSql>, start: number): string {
  let depth = 0;
  let text = '';
  for (const [i, s] of segments.entries()) {
    const from = i === 0 ? start : 0;
    if (s.kind !== 'code') {
      text += s.text;
      continue;
    }
    for (let j = from; j < s.text.length; j++) {
      const ch = s.text[j]!;
      text += ch;
      if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) return text;
    }
  }
  return text;
}
