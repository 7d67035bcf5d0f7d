/**
 * Parses the config text into a YAML document that keeps source positions, so every later
 * problem can name its line. A syntax error stops here with file, line and column.
 */
import { LineCounter, parseDocument, type Document } from 'yaml';
import { ConfigError } from '../errors.ts';
import { redact } from '../log/redact.ts';

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
    // The yaml package appends " at line L, column C:" and a code frame; the frame could hold a
    // secret and the position is already in our prefix, so only the first sentence is kept.
    const reason = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    // `{` and `}` end a flow mapping, so `{ api_key: ${KEY} }` breaks in a way yaml cannot name.
    const line = text.split('\n')[pos.line - 1] ?? '';
    const hint = line.includes('${') && /[{[]/.test(line) ? '; inside { } or [ ] a ${VAR} value must be quoted: "${VAR}"' : '';
    throw new ConfigError(redact(`${file}:${pos.line}:${pos.col}: YAML syntax error: ${reason}${hint}`));
  }
  return { doc, lineCounter };
}
