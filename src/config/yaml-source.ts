/**
 * Parses the config text into a YAML document that keeps source positions, so every later
 * problem can name its line. A syntax error stops here with file, line and column; so does
 * a document whose aliases expand without bound.
 */
import { LineCounter, parseDocument, type Document } from 'yaml';
import { ConfigError } from '../errors.ts';
import { redact } from '../log/redact.ts';
import { indentationMistake } from './yaml-indentation.ts';

/** A parsed config file: the document tree and the counter that maps offsets to lines. */
export interface YamlSource {
  doc: Document;
  lineCounter: LineCounter;
}

export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  // `uniqueKeys` (the default) turns a repeated key into an error instead of a silent override.
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0] ?? { line: 1, col: 1 };
    const indentation = indentationMistake(text, first, pos.line);
    if (indentation) {
      const { line, col, reason } = indentation;
      throw new ConfigError(redact(`${file}:${line}:${col}: YAML indentation error: ${reason}`));
    }
    // The yaml package appends " at line L, column C:" and a code frame; the frame could hold a
    // secret and the position is already in our prefix, so only the first sentence is kept.
    const reason = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    // `{` and `}` end a flow mapping, so `{ api_key: ${KEY} }` breaks in a way yaml cannot name.
    const line = text.split('\n')[pos.line - 1] ?? '';
    const hint =
      line.includes('${') && /[{[]/.test(line) ? '; inside { } or [ ] a ${VAR} value must be quoted: "${VAR}"' : '';
    throw new ConfigError(redact(`${file}:${pos.line}:${pos.col}: YAML syntax error: ${reason}${hint}`));
  }
  return { doc, lineCounter };
}

/** Aliases a config may expand (`*name`); yaml's own default, named here because the message quotes it. */
const MAX_ALIAS_COUNT = 100;

/**
 * The plain data of the document. A "billion laughs" document (aliases of aliases of lists)
 * would expand to gigabytes: yaml stops it after `MAX_ALIAS_COUNT` expansions, and that
 * becomes a config error instead of a crash.
 */
export function yamlData(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof ReferenceError && /alias/i.test(error.message))) throw error;
    throw new ConfigError(
      `${file}: its YAML aliases (*name) expand more than ${MAX_ALIAS_COUNT} times, the shape of a resource exhaustion ("billion laughs") attack; write the values out instead of nesting aliases`,
    );
  }
}
