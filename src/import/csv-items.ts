/**
 * CSV input: a header row naming item fields (`prompt_text` required; `client_id`, `tags`,
 * `language`, `search_intent`, `category`, `topic`, `seed_keyword` optional), one item per
 * row. An empty cell leaves the field out; `tags` holds the tags separated by `|`.
 */
import { ConfigError } from '../errors.ts';
import { readCsvRows } from './csv-rows.ts';
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

export async function* readCsvItems(path: string): AsyncGenerator<InputRecord> {
  let header: string[] | undefined;
  for await (const row of readCsvRows(path)) {
    if (!header) {
      header = row.fields.map((name) => name.trim());
      checkHeader(path, header);
      continue;
    }
    if (row.unterminated) {
      yield { line: row.line, problem: { field: '', issue: 'a quoted field is never closed (missing ")' } };
      continue;
    }
    if (row.fields.length !== header.length) {
      yield {
        line: row.line,
        problem: { field: '', issue: `has ${row.fields.length} fields; the header has ${header.length}` },
      };
      continue;
    }
    const item: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const cell = row.fields[i]!;
      if (cell.trim() === '') return;
      item[name] = name === 'tags' ? cell.split(TAG_SEPARATOR).map((tag) => tag.trim()) : cell;
    });
    yield { line: row.line, item };
  }
  if (!header)
    throw new ConfigError(`${path} is empty: expected a header row (${CSV_COLUMNS.join(', ')}) and one row per prompt`);
}
