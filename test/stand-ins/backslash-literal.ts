/**
 * String literals of warehouses that escape with a backslash (BigQuery, Snowflake), rewritten
 * for DuckDB, the stand-ins' engine, whose plain strings know no escape: the literal's value
 * decoded as the warehouse reads it, then written with `'` doubled.
 */
const SIMPLE: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** The value of a literal's body (between its quotes) as the warehouse reads it. */
export function decodeBackslashBody(body: string, quote: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === quote && body[i + 1] === quote) {
      out += quote;
      i++;
    } else if (ch !== '\\') out += ch;
    else {
      const next = body[++i] ?? '';
      const hex = (digits: number) => {
        out += String.fromCodePoint(Number.parseInt(body.slice(i + 1, i + 1 + digits), 16));
        i += digits;
      };
      if (next in SIMPLE) out += SIMPLE[next];
      else if (next === 'x' || next === 'X') hex(2);
      else if (next === 'u') hex(4);
      else if (next === 'U') hex(8);
      else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(body.slice(i))![0];
        out += String.fromCharCode(Number.parseInt(octal, 8));
        i += octal.length - 1;
      } else out += next;
    }
  }
  return out;
}

/** A DuckDB literal of `value`. */
export function duckdbLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
