/**
 * Pass one over the input: every item is checked against the spec's rules (the same zod
 * schema that describes the request) before anything is sent, so a bad line 2,400 stops the
 * run before partition 1 exists. Streams the file: only `client_id`s are remembered, to
 * check they are unique across the file (and so within every partition); a warehouse source
 * ordered by `client_id` has equal ones side by side, so only the last is kept.
 */
import { formatPath } from '../../schemas/format-issues.ts';
import { promptImportRequestSchema } from '../../schemas/prompt-import.ts';
import { ConfigError } from '../errors.ts';
import { CheckedRows } from './checked-rows.ts';
import type { ImportOptions } from './import-options.ts';
import { readInputItems } from './input-items.ts';
import type { InputRecord } from './input-record.ts';
import { type KnownDigests, textSha256 } from './prompt-digest.ts';

/** Problems listed in the error; the count says how many more there are. */
const MAX_LISTED = 50;

export interface InputCheck {
  readonly items: number;
  /** Items whose text digest `known` holds: not sent. */
  readonly known: number;
  /** What was read of a table or query source, so pass two sends only these rows. */
  readonly rows?: CheckedRows;
}

/** How a request default is named on the command line, for problems in `defaults`. */
const DEFAULT_FLAGS: Record<string, string> = {
  tags: '--defaults-tags',
  language: '--defaults-language',
  search_intent: '--defaults-intent',
};

/** How a problem names the item: its file line, or its table row and column. */
function where(record: InputRecord, field: string): string {
  const noun = record.row ? 'column' : 'field';
  return `${record.row ?? `line ${record.line}`}${field ? `, ${noun} ${field}` : ''}`;
}

/** Remembers `client_id`s to find repeats: all of them, or only the last when equal ones are neighbours. */
function clientIdTracker(neighbours: boolean) {
  const seen = new Map<string, number>();
  return (clientId: string, position: number): number | undefined => {
    const first = seen.get(clientId);
    if (first !== undefined) return first;
    if (neighbours) seen.clear();
    seen.set(clientId, position);
    return undefined;
  };
}

export async function checkInput(options: ImportOptions, known?: KnownDigests): Promise<InputCheck> {
  const problems: string[] = [];
  const flagProblems = new Set<string>();
  const firstOf = clientIdTracker(options.warehouse?.orderedByClientId ?? false);
  let items = 0;
  let knownItems = 0;
  const rows = options.warehouse ? new CheckedRows() : undefined;
  for await (const record of readInputItems(options)) {
    rows?.add(record);
    if (record.problem) {
      problems.push(`${where(record, record.problem.field)}: ${record.problem.issue}`);
      continue;
    }
    items++;
    const text = record.item?.prompt_text;
    if (known && typeof text === 'string' && known.has(textSha256(text))) knownItems++;
    const request = {
      items: [record.item],
      defaults: options.defaults,
      classification: { mode: options.mode },
      validate_only: options.validateOnly,
    };
    const parsed = promptImportRequestSchema.safeParse(request);
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const [scope, , ...rest] = issue.path;
      if (scope === 'defaults') {
        const field = String(issue.path[1] ?? '');
        flagProblems.add(`${DEFAULT_FLAGS[field] ?? `defaults.${field}`}: ${issue.message}`);
        continue;
      }
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) {
        const field = formatPath(key === undefined ? rest : [...rest, key]);
        problems.push(
          `${where(record, field || '(item)')}: ${key === undefined ? issue.message : 'is not an import field'}`,
        );
      }
    }
    const clientId = record.item?.client_id;
    if (typeof clientId === 'string') {
      const first = firstOf(clientId, record.line);
      if (first !== undefined)
        problems.push(
          `${where(record, 'client_id')}: repeats the client_id of ${record.row ? 'row' : 'line'} ${first}; client_ids must be unique`,
        );
    }
  }
  if (flagProblems.size)
    throw new ConfigError(`bad request defaults; nothing was sent:\n  ${[...flagProblems].join('\n  ')}`);
  if (problems.length) {
    const listed = problems.slice(0, MAX_LISTED);
    if (problems.length > MAX_LISTED) listed.push(`... and ${problems.length - MAX_LISTED} more`);
    throw new ConfigError(
      `${options.file}: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}; nothing was sent:\n  ${listed.join('\n  ')}`,
    );
  }
  if (items === 0) throw new ConfigError(`${options.file} holds no prompts; nothing was sent`);
  rows?.finish();
  return rows ? { items, known: knownItems, rows } : { items, known: knownItems };
}
