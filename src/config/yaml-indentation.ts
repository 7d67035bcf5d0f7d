/**
 * A YAML indentation mistake said in plain words, on the line of the mistake. The yaml package
 * reports a key indented deeper than the key above it on the line above (the value it would
 * extend) as `Nested mappings are not allowed in compact mappings`, and a key that lines up with
 * no level as `All mapping items must start at the same column`; neither says what to change.
 */
import type { YAMLError } from 'yaml';

/** Where the mistake is (1-based) and what is wrong with it. */
export interface IndentationMistake {
  readonly line: number;
  readonly col: number;
  readonly reason: string;
}

/** A line that holds YAML content: not blank, not only a comment. */
const CONTENT = /^\s*[^\s#]/;
/** The key a line starts with (`api_key` of `  api_key: x`, of `  - api_key: x`). */
const KEY = /^\s*(?:-\s+)?([\w.-]+)\s*:(?:\s|$)/;

/**
 * The indentation mistake behind a yaml error, or undefined when the error is another kind.
 * @param lineOfError the 1-based line yaml reported the error on
 */
export function indentationMistake(
  text: string,
  error: YAMLError,
  lineOfError: number,
): IndentationMistake | undefined {
  const lines = text.split(/\r?\n/);
  const at = (line: number) => ({ line, text: lines[line - 1] ?? '', indent: indentOf(lines[line - 1] ?? '') });
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY' || error.code === 'MULTILINE_IMPLICIT_KEY') {
    // yaml names the line whose value the next content line would extend: that next line is the mistake.
    const above = at(lineOfError);
    const mistake = nextContentLine(lines, lineOfError);
    if (mistake === undefined || at(mistake).indent <= above.indent) return undefined;
    const wrong = at(mistake);
    return {
      line: mistake,
      col: wrong.indent + 1,
      reason:
        `${named(wrong.text)} is indented ${spaces(wrong.indent)}, more than ${named(above.text)} on line ${above.line} (${spaces(above.indent)}), ` +
        `so YAML reads it as part of the value above; keys of one section line up: indent it ${spaces(above.indent)}`,
    };
  }
  if (error.code === 'BAD_INDENT') {
    // yaml may name the blank or comment line before the mistake.
    const mistake = nextContentLine(lines, lineOfError - 1);
    if (mistake === undefined) return undefined;
    const wrong = at(mistake);
    const levels = levelsAbove(lines, mistake, wrong.indent).map(at);
    const choices = levels.map((level) => `${spaces(level.indent)} like ${named(level.text)} on line ${level.line}`);
    return {
      line: mistake,
      col: wrong.indent + 1,
      reason:
        `${named(wrong.text)} is indented ${spaces(wrong.indent)}, which lines up with no key above it` +
        (choices.length > 0 ? `; indent it ${choices.join(' or ')}` : ''),
    };
  }
  return undefined;
}

function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

function nextContentLine(lines: readonly string[], after: number): number | undefined {
  const index = lines.findIndex((line, i) => i >= after && CONTENT.test(line));
  return index < 0 ? undefined : index + 1;
}

/**
 * The two levels a line indented `indent` sits between: the nearest content line above indented
 * less (its parent's level), and below that the line of the shallowest level deeper than it.
 */
function levelsAbove(lines: readonly string[], line: number, indent: number): number[] {
  let less: number | undefined;
  let more: number | undefined;
  for (let i = line - 2; i >= 0 && less === undefined; i--) {
    const text = lines[i]!;
    if (!CONTENT.test(text)) continue;
    const own = indentOf(text);
    if (own < indent) less = i + 1;
    else if (own > indent && (more === undefined || own < indentOf(lines[more - 1]!))) more = i + 1;
  }
  return [less, more].filter((found) => found !== undefined);
}

/** How a line is named: by its key, never by its value (which could be a secret written in by mistake). */
function named(line: string): string {
  const key = KEY.exec(line)?.[1];
  return key === undefined ? 'the line' : `"${key}"`;
}

function spaces(count: number): string {
  return count === 1 ? '1 space' : `${count} spaces`;
}
