/** SQL text cut into code, string literals and quoted identifiers, so rewrites touch code only. */

/** A piece of SQL text: code, a '...' literal, or a "..." identifier (quotes included). */
export interface SqlSegment {
  readonly kind: 'code' | 'literal' | 'identifier';
  readonly text: string;
}

export function splitSql(sql: string): SqlSegment[] {
  const out: SqlSegment[] = [];
  let i = 0;
  let code = '';
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      if (code) out.push({ kind: 'code', text: code });
      code = '';
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) break;
        if (sql[j] === ch) {
          if (sql[j + 1] === ch)
            j += 2; // doubled quote escapes itself
          else break;
        } else if (ch === "'" && sql[j] === '\\') j += 2;
        else j += 1;
      }
      out.push({ kind: ch === "'" ? 'literal' : 'identifier', text: sql.slice(i, j + 1) });
      i = j + 1;
    } else {
      code += ch;
      i += 1;
    }
  }
  if (code) out.push({ kind: 'code', text: code });
  return out;
}
