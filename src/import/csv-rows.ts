/**
 * RFC 4180 CSV, streamed: quoted fields with commas, doubled quotes and line breaks inside,
 * CRLF or LF, a leading BOM ignored. Yields each row with the line it starts on, so a
 * problem in a multi-line row is reported where the row begins.
 */
import { createReadStream } from 'node:fs';

export interface CsvRow {
  readonly line: number;
  readonly fields: string[];
  /** A quote opened and never closed before the end of the file. */
  readonly unterminated?: boolean;
}

export async function* readCsvRows(path: string): AsyncGenerator<CsvRow> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false; // just saw a quote inside a quoted field: "" or the closing quote
  let line = 1;
  let rowLine = 1;
  let rowHasContent = false;
  let first = true;
  const endRow = () => {
    fields.push(field);
    const row = { line: rowLine, fields };
    fields = [];
    field = '';
    rowHasContent = false;
    return row;
  };
  for await (const chunk of createReadStream(path, { encoding: 'utf8' }) as AsyncIterable<string>) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!;
      if (first) {
        first = false;
        if (ch === '\uFEFF') continue;
      }
      if (quoted) {
        if (afterQuote) {
          afterQuote = false;
          if (ch === '"') {
            field += '"';
            continue;
          }
          quoted = false; // the quote closed the field; fall through to handle ch unquoted
        } else if (ch === '"') {
          afterQuote = true;
          continue;
        } else {
          if (ch === '\n') line++;
          field += ch;
          continue;
        }
      }
      if (ch === '"' && field === '') {
        quoted = true;
        rowHasContent = true;
      } else if (ch === ',') {
        fields.push(field);
        field = '';
        rowHasContent = true;
      } else if (ch === '\n') {
        if (field.endsWith('\r')) field = field.slice(0, -1);
        if (rowHasContent || field !== '') yield endRow();
        else field = '';
        line++;
        rowLine = line;
      } else {
        field += ch;
        if (ch !== '\r') rowHasContent = true;
      }
    }
  }
  if (quoted && !afterQuote) {
    yield { ...endRow(), unterminated: true };
    return;
  }
  if (field.endsWith('\r')) field = field.slice(0, -1);
  if (rowHasContent || field !== '') yield endRow();
}
