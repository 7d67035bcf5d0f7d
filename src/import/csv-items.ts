/**
 * CSV input: a header row naming item fields (`prompt_text` required; `client_id`, `tags`,
 * `language`, `search_intent`, `category`, `topic`, `seed_keyword` optional), one item per
 * row. An empty cell leaves the field out; `tags` holds the tags separated by `|`.
 *
 * Parsed by `csv-parse` (RFC 4180, streamed; LF, CRLF or CR rows; a BOM ignored), strictly: a
 * quote inside an unquoted field or after a closing quote is an error of that row, reported
 * with its line and field while the other rows are still checked.
 */
import { type CsvError, parse } from 'csv-parse';
import { pipeline } from 'node:stream';
import { ConfigError } from '../errors.ts';
import { openInputFile } from './input-file.ts';
import type { InputRecord } from './input-record.ts';

export const CSV_COLUMNS = [
  'prompt_text',
  'client_id',
  'tags',
  'language',
  'search_intent',
  'category',
  'topic',
  'seed_keyword',
] as const;
export const TAG_SEPARATOR = '|';

function checkHeader(path: string, header: readonly string[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) problems.push(`unknown column "${name}"`);
    else if (seen.has(name)) problems.push(`column "${name}" appears twice`);
    seen.add(name);
  }
  if (!seen.has('prompt_text')) problems.push('the column "prompt_text" is missing');
  if (problems.length)
    throw new ConfigError(`${path} line 1: ${problems.join('; ')} (columns: ${CSV_COLUMNS.join(', ')})`);
}

/** A row as csv-parse gives it with `info` and `raw`: the line it ends on and its text. */
interface ParsedRow {
  record: string[];
  info: { lines: number };
  raw: string;
}

const LINE_BREAK = /\r\n|\r|\n/g;
const CRLF = /\r\n/g;

/**
 * Line numbers in the file's own terms. csv-parse counts a CRLF inside a quoted field as two
 * lines, which puts that row and every later one a line too far per such CRLF; `overcount` is
 * how far it has gone so far, kept in parse order (a row's raw text holds its CRLFs).
 */
function lineCounter() {
  let overcount = 0;
  const crlfs = (text: string) => text.match(CRLF)?.length ?? 0;
  return {
    /** The line a row starts on: the line it ends on, less the breaks inside it (quoted fields may hold some). */
    row(row: ParsedRow): number {
      const inside = row.raw.replace(/(?:\r\n|\r|\n)$/, '');
      const doubled = crlfs(inside);
      const line = row.info.lines - overcount - doubled - (inside.match(LINE_BREAK)?.length ?? 0);
      overcount += doubled;
      return line;
    },
    /** The line of a skipped row's error; `raw` is the row's text up to the error. */
    error(error: CsvError, raw: string): number {
      const doubled = crlfs(raw.replace(/\r\n$/, ''));
      const line = Number(error.lines) - overcount - doubled;
      overcount += doubled;
      return line;
    },
  };
}

/** A row csv-parse skipped: its error and the line it happened on. */
interface SkippedRow {
  error: CsvError;
  line: number;
}

/** csv-parse's error of a skipped row, in the words of our other line problems. */
function rowProblem({ error, line }: SkippedRow, header: readonly string[] | undefined): InputRecord {
  const column = typeof error.column === 'number' ? header?.[error.column] : undefined;
  const field = column ?? '';
  const issues: Record<string, string> = {
    INVALID_OPENING_QUOTE:
      'has a quote inside an unquoted field; quote the whole field and double the quote inside ("What is ""the best"" crm")',
    CSV_INVALID_CLOSING_QUOTE: 'goes on after the closing quote of a quoted field; double a quote inside one ("")',
    CSV_QUOTE_NOT_CLOSED: 'ends the file inside a quoted field that is never closed (missing ")',
  };
  return { line, problem: { field, issue: issues[error.code] ?? error.message } };
}

export async function* readCsvItems(path: string): AsyncGenerator<InputRecord> {
  let header: string[] | undefined;
  // Errors of skipped rows, reported in line order once the header (read before them) names their fields.
  const skipped: SkippedRow[] = [];
  const lines = lineCounter();
  const rows = pipeline(
    await openInputFile(path),
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error, raw) => {
        if (error) skipped.push({ error, line: lines.error(error, raw ?? '') });
      },
      // Called in parse order, with on_skip, so the line count follows the file.
      on_record: (record) => {
        const row = record as unknown as ParsedRow;
        return { ...row, line: lines.row(row) } as unknown as string[];
      },
      info: true,
      raw: true,
    }),
    () => {},
  );
  for await (const row of rows as AsyncIterable<ParsedRow & { line: number }>) {
    if (!header) {
      header = row.record.map((name) => name.trim());
      checkHeader(path, header);
      continue;
    }
    const { line } = row;
    // The parser reads ahead, so skipped rows after this one may already be here.
    while (skipped[0] && skipped[0].line < line) yield rowProblem(skipped.shift()!, header);
    if (row.record.length !== header.length) {
      yield { line, problem: { field: '', issue: `has ${row.record.length} fields; the header has ${header.length}` } };
      continue;
    }
    const item: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const cell = row.record[i]!;
      if (cell.trim() === '') return;
      item[name] = name === 'tags' ? cell.split(TAG_SEPARATOR).map((tag) => tag.trim()) : cell;
    });
    yield { line, item };
  }
  yield* skipped.splice(0).map((error) => rowProblem(error, header));
  if (!header)
    throw new ConfigError(`${path} is empty: expected a header row (${CSV_COLUMNS.join(', ')}) and one row per prompt`);
}
