/**
 * BigQuery's JSON type keeps a value, not the text it was given, and writes it back in its
 * own form. The data types reference lists the canonicalization: whitespace is not kept;
 * integers from -2^63 to 2^64-1 are stored exactly and other numbers as FLOAT64 (the text of
 * a number "may not be preserved"); array order is kept; object member order is not kept;
 * of duplicate keys the first is kept. PARSE_JSON's `wide_number_mode` decides what happens
 * to a number FLOAT64 cannot hold exactly: 'exact' (the default) fails, 'round' rounds it.
 *
 * Where the documentation says "not guaranteed", the stand-in does what GoogleSQL's
 * reference implementation does (ZetaSQL's JSONValue, on nlohmann::json): members sorted by
 * the bytes of their keys, compact output, strings escaped minimally, a FLOAT64 printed with
 * the fewest digits that read back the same, in fixed notation with at least one decimal
 * (`1.5`, `100.0`, `0.0001`) from 1e-4 up to 1e15 and in exponent notation outside it
 * (`1e-05`, `9.223372036854776e+20`, the form of PARSE_JSON's documented example).
 */

export type WideNumberMode = 'exact' | 'round';

/** What PARSE_JSON refuses; the engine reports it as the query's error. */
export class JsonValueError extends Error {}

type Node =
  | { number: string }
  | { string: string }
  | { literal: 'true' | 'false' | 'null' }
  | { array: Node[] }
  | { object: Map<string, Node> };

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** PARSE_JSON(text, wide_number_mode => mode), written back as BigQuery writes a JSON value. */
export function bigqueryJson(text: string, mode: WideNumberMode = 'exact'): string {
  try {
    JSON.parse(text);
  } catch (error) {
    throw new JsonValueError(`Invalid input to PARSE_JSON: ${(error as Error).message}`);
  }
  return write(new Reader(text).value(), mode);
}

function write(node: Node, mode: WideNumberMode): string {
  if ('number' in node) return number(node.number, mode);
  if ('string' in node) return JSON.stringify(node.string);
  if ('literal' in node) return node.literal;
  if ('array' in node) return `[${node.array.map((item) => write(item, mode)).join(',')}]`;
  const keys = [...node.object.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${write(node.object.get(key)!, mode)}`).join(',')}}`;
}

function number(text: string, mode: WideNumberMode): string {
  if (/^-?\d+$/.test(text)) {
    const integer = BigInt(text);
    if (integer >= INT64_MIN && integer <= UINT64_MAX) return integer.toString();
  }
  const value = Number(text);
  if (!Number.isFinite(value)) throw new JsonValueError(`Input number: ${text} cannot be stored in JSON`);
  const written = float64(value);
  if (mode === 'exact' && !sameDecimal(text, written))
    throw new JsonValueError(`Input number: ${text} cannot round-trip through string representation`);
  return written;
}

/** A FLOAT64 as nlohmann::json prints it: shortest round-trip digits, fixed from 1e-4 to 1e15. */
function float64(value: number): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (value === 0) return `${sign}0.0`;
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const point = Number(exponent) + 1; // digits[0..point) are the integer part
  if (digits.length <= point && point <= 15) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
  if (point > 0 && point <= 15) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  if (point > -4 && point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  const e = point - 1;
  const written = `${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${written}`;
}

/** Whether two JSON numbers denote the same decimal value (1.50 and 1.5 do). */
function sameDecimal(a: string, b: string): boolean {
  const canonical = (text: string) => {
    const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
    const digits = (m[2]! + (m[3] ?? '')).replace(/^0+/, '');
    if (digits === '') return '0';
    const exponent = Number(m[4] ?? 0) - (m[3]?.length ?? 0) + (digits.length - digits.replace(/0+$/, '').length);
    return `${m[1]}${digits.replace(/0+$/, '')}e${exponent}`;
  };
  return canonical(a) === canonical(b);
}

/** Reads text already known to be valid JSON, keeping each number's own text. */
class Reader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  value(): Node {
    this.#space();
    const ch = this.#text[this.#at];
    if (ch === '{') return this.#object();
    if (ch === '[') return this.#array();
    if (ch === '"') return { string: this.#string() };
    const literal = /^(true|false|null)/.exec(this.#text.slice(this.#at, this.#at + 5));
    if (literal) {
      this.#at += literal[1]!.length;
      return { literal: literal[1] as 'true' | 'false' | 'null' };
    }
    const number = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.#text.slice(this.#at))![0];
    this.#at += number.length;
    return { number };
  }

  #object(): Node {
    const object = new Map<string, Node>();
    this.#at++;
    this.#space();
    if (this.#text[this.#at] === '}') return (this.#at++, { object });
    for (;;) {
      this.#space();
      const key = this.#string();
      this.#space();
      this.#at++; // ':'
      const value = this.value();
      // The first of duplicate keys is kept.
      if (!object.has(key)) object.set(key, value);
      this.#space();
      if (this.#text[this.#at++] === '}') return { object };
    }
  }

  #array(): Node {
    const array: Node[] = [];
    this.#at++;
    this.#space();
    if (this.#text[this.#at] === ']') return (this.#at++, { array });
    for (;;) {
      array.push(this.value());
      this.#space();
      if (this.#text[this.#at++] === ']') return { array };
    }
  }

  #string(): string {
    const start = this.#at;
    this.#at++;
    while (this.#text[this.#at] !== '"') this.#at += this.#text[this.#at] === '\\' ? 2 : 1;
    this.#at++;
    return JSON.parse(this.#text.slice(start, this.#at)) as string;
  }

  #space(): void {
    while (/\s/.test(this.#text[this.#at] ?? '')) this.#at++;
  }
}
