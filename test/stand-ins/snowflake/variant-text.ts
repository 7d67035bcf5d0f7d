/**
 * A VARIANT as Snowflake prints it in a result. PARSE_JSON types each number as it parses
 * (Snowflake's PARSE_JSON usage notes): an integer or a plain decimal that fits NUMBER (at most
 * 38 digits, at most 37 of them after the point) is that exact NUMBER and prints with the digits
 * written; a number in scientific notation, or one too long for NUMBER, becomes a DOUBLE and
 * prints as `%.15e` (number-text.ts), 16 significant digits. Objects print with their keys sorted
 * (TO_JSON(PARSE_JSON('{"b":1,"a":2}')) is `{"a":2,"b":1}` in the same notes), and a value in a
 * result is indented by 2 (JSON_INDENT's default).
 *
 * The stand-in's PARSE_JSON keeps the text as written (a CAST to DuckDB's JSON), so the number
 * typing happens here, on output, from the original spelling. (Whether Snowflake keeps a
 * decimal's trailing zeros is not documented; aivis never writes any.)
 */
import { variantDoubleText } from './number-text.ts';

/** A number as written in the JSON text. */
class NumberSource {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

type Parsed = NumberSource | string | boolean | null | Parsed[] | { [key: string]: Parsed };

const PLAIN_NUMBER = /^-?(\d+)(?:\.(\d+))?$/;
const NUMBER_DIGITS = 38;
const NUMBER_SCALE = 37;

export function variantText(json: string): string {
  const parsed = JSON.parse(json, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' ? new NumberSource(context?.source ?? String(value)) : value,
  ) as Parsed;
  return print(parsed, '');
}

function print(value: Parsed, indent: string): string {
  if (value instanceof NumberSource) return numberText(value.text);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return value.length ? `[\n${value.map((v) => inner + print(v, inner)).join(',\n')}\n${indent}]` : '[]';
  const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return keys.length
    ? `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${print(value[k]!, inner)}`).join(',\n')}\n${indent}}`
    : '{}';
}

/** A JSON number as Snowflake stores and prints it: an exact NUMBER when it fits, else a DOUBLE. */
function numberText(text: string): string {
  const plain = PLAIN_NUMBER.exec(text);
  if (plain) {
    const whole = plain[1]!;
    const fraction = plain[2] ?? '';
    const digits = (whole === '0' ? 0 : whole.length) + fraction.length;
    if (digits <= NUMBER_DIGITS && fraction.length <= NUMBER_SCALE)
      return /[1-9]/.test(text) ? text : text.replace(/^-/, '');
  }
  return variantDoubleText(Number(text));
}
