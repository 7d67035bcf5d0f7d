/**
 * The regular expressions of the document in force (`pattern`, `patternProperties`) run on
 * RE2 (`re2js`, pure JavaScript): time linear in the text whatever the pattern, so a served
 * `^(a+)+$` cannot stall validation, nor a run's stop signal behind it
 * (docs/served-contract.md#validation). A pattern RE2 cannot run (a backreference, a
 * lookaround) is not checked: like a format, it is an annotation.
 */
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/** ajv keeps one compiled expression per `toString()`: each must name its own pattern. */
interface NamedRegExp extends RegExpLike {
  toString(): string;
}

function linear(pattern: string, flags: string): NamedRegExp {
  const source = `/${pattern}/${flags}`;
  try {
    const compiled = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    return { test: (text: string) => compiled.test(text), toString: () => source };
  } catch {
    return { test: () => true, toString: () => source };
  }
}

/** ajv's `code.regExp`: `code` names the engine for standalone code, which aivis does not generate. */
export const linearRegExp: RegExpEngine = Object.assign(linear, { code: 're2js' });
