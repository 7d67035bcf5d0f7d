/**
 * What Snowflake's PARSE_JSON refuses, checked before the stand-in hands the text to DuckDB
 * (whose JSON reader is kinder: it takes NaN, Infinity, trailing commas, duplicate keys and
 * numbers beyond double range).
 *
 * From Snowflake's PARSE_JSON reference: the argument must hold valid JSON; duplicate keys are
 * refused by default (parameter 's'); an empty or whitespace-only string is NULL, not an error.
 * The error is `100069` / `22P02` "Error parsing JSON: <reason>, pos <n>" (as users report it,
 * e.g. "unfinished string", "missing comma"). Our reading, not the documentation's: a lone
 * surrogate escape, NaN/Infinity, trailing content and a number beyond double range are
 * refused too, and the reasons' wording other than those two is ours.
 */

/** Why a text is not JSON Snowflake takes, and where (a 0-based character offset). */
export interface JsonRefusal {
  readonly reason: string;
  readonly pos: number;
}

/** The message Snowflake gives for a refused text. */
export const refusalMessage = (r: JsonRefusal) => `Error parsing JSON: ${r.reason}, pos ${r.pos}`;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
/** JSON's whitespace, and a run of string characters that need no look (no quote, backslash or control). */
const SPACE = /[ \t\n\r]*/y;
const PLAIN = /[^"\\\u0000-\u001f]+/y;
const SIMPLE_ESCAPE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

class Refused extends Error {
  readonly refusal: JsonRefusal;
  constructor(reason: string, pos: number) {
    super(reason);
    this.refusal = { reason, pos };
  }
}

/** `undefined` when PARSE_JSON takes `text` (whitespace-only included: it yields NULL). */
export function parseJsonRefusal(text: string): JsonRefusal | undefined {
  if (plainlyTaken(text)) return undefined;
  const scanner = new Scanner(text);
  try {
    scanner.skipSpace();
    if (scanner.at === text.length) return undefined;
    scanner.value();
    scanner.skipSpace();
    if (scanner.at !== text.length) throw new Refused('more than one document in the input', scanner.at);
    return undefined;
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/** Digits enough for a number beyond double range (with a two-digit exponent at most), or a longer exponent. */
const RISKY_NUMBER = /\d{200}|[eE][+-]?\d{3}/;

/**
 * The common case, without the scanner: JSON.parse takes the text, so it is JSON; it has no
 * `\u` escape (no lone surrogate, no escaped colon) and no number that could be beyond double
 * range; and its colons are its keys' and those in its strings (a duplicate key drops one).
 * Anything else goes to the scanner, which finds the refusal and its position.
 */
function plainlyTaken(text: string): boolean {
  if (text.includes('\\u') || RISKY_NUMBER.test(text)) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  return colonsIn(text) === colonsOf(value);
}

function colonsIn(text: string): number {
  let n = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) n++;
  return n;
}

/** One per key, plus those inside the keys and string values. */
function colonsOf(value: unknown): number {
  if (typeof value === 'string') return colonsIn(value);
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + colonsOf(item), 0);
  let n = 0;
  for (const [key, item] of Object.entries(value)) n += 1 + colonsIn(key) + colonsOf(item);
  return n;
}

class Scanner {
  at = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  skipSpace(): void {
    SPACE.lastIndex = this.at;
    SPACE.test(this.text);
    this.at = SPACE.lastIndex;
  }

  value(): void {
    const c = this.text[this.at];
    if (c === undefined) throw new Refused('incomplete value', this.at);
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else if (c === '-' || (c >= '0' && c <= '9')) this.number();
    else if (this.sticky(LITERAL) === undefined) this.refuseWord();
  }

  private refuseWord(): never {
    const word = this.sticky(WORD, false);
    throw new Refused(word ? `unknown keyword "${word}"` : 'unexpected character', this.at);
  }

  private object(): void {
    const keys = new Set<string>();
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      const keyAt = this.at;
      if (this.text[this.at] !== '"') throw new Refused('attribute name expected', this.at);
      const key = this.string();
      if (keys.has(key)) throw new Refused(`duplicate object attribute "${key}"`, keyAt);
      keys.add(key);
      this.skipSpace();
      if (this.text[this.at] !== ':') throw new Refused('missing colon', this.at);
      this.at++;
      this.skipSpace();
      this.value();
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === '}') return;
      if (next !== ',')
        throw new Refused(next === undefined ? 'incomplete object value' : 'missing comma', this.at - 1);
    }
  }

  private array(): void {
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      this.value();
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === ']') return;
      if (next !== ',') throw new Refused(next === undefined ? 'incomplete array value' : 'missing comma', this.at - 1);
    }
  }

  /** A string from its opening quote; returns its value (escapes decoded) for the duplicate-key check. */
  private string(): string {
    const start = this.at++;
    let value = '';
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) throw new Refused('unfinished string', start);
      if (c === '"') {
        this.at++;
        return value;
      }
      if (c < ' ') throw new Refused('control character in string', this.at);
      if (c !== '\\') {
        // The run up to the next quote, backslash or control character, in one step.
        PLAIN.lastIndex = this.at;
        PLAIN.test(this.text);
        value += this.text.slice(this.at, PLAIN.lastIndex);
        this.at = PLAIN.lastIndex;
        continue;
      }
      const e = this.text[this.at + 1];
      if (e !== undefined && SIMPLE_ESCAPE.has(e)) {
        value += JSON.parse(`"\\${e}"`) as string;
        this.at += 2;
        continue;
      }
      if (e !== 'u' || !/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6)))
        throw new Refused('invalid escape sequence', this.at);
      const unit = parseInt(this.text.slice(this.at + 2, this.at + 6), 16);
      if (unit >= 0xdc00 && unit <= 0xdfff) throw new Refused('invalid Unicode escape (lone low surrogate)', this.at);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const low = /^\\u(d[c-f][0-9a-f]{2})$/i.exec(this.text.slice(this.at + 6, this.at + 12));
        if (!low) throw new Refused('invalid Unicode escape (lone high surrogate)', this.at);
        value += String.fromCharCode(unit, parseInt(low[1]!, 16));
        this.at += 12;
        continue;
      }
      value += String.fromCharCode(unit);
      this.at += 6;
    }
  }

  private number(): void {
    const start = this.at;
    const text = this.sticky(NUMBER);
    if (text === undefined) throw new Refused('invalid number', start);
    if (!Number.isFinite(Number(text))) throw new Refused('number out of range', start);
  }

  /** The match of a sticky pattern at the cursor, consumed unless `consume` is false. */
  private sticky(pattern: RegExp, consume = true): string | undefined {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text)?.[0];
    if (match !== undefined && consume) this.at += match.length;
    return match;
  }
}
