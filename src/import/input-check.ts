/**
 * Pass one over the input: every item is checked against the spec's rules (the same zod
 * schema that describes the request) before anything is sent, so a bad line 2,400 stops the
 * run before partition 1 exists. Streams the file: only `client_id`s are remembered, to
 * check they are unique across the file (and so within every partition).
 */
import { formatPath } from '../../schemas/format-issues.ts';
import { promptImportRequestSchema } from '../../schemas/prompt-import.ts';
import { ConfigError } from '../errors.ts';
import type { ImportOptions } from './import-options.ts';
import { readInputItems } from './input-items.ts';

/** Problems listed in the error; the count says how many more there are. */
const MAX_LISTED = 50;

export interface InputCheck {
  readonly items: number;
}

/** How a request default is named on the command line, for problems in `defaults`. */
const DEFAULT_FLAGS: Record<string, string> = {
  tags: '--defaults-tags',
  language: '--defaults-language',
  search_intent: '--defaults-intent',
};

export async function checkInput(options: ImportOptions): Promise<InputCheck> {
  const problems: string[] = [];
  const flagProblems = new Set<string>();
  const clientIds = new Map<string, number>();
  let items = 0;
  for await (const record of readInputItems(options.file)) {
    if (record.problem) {
      const { field, issue } = record.problem;
      problems.push(`line ${record.line}${field ? `, field ${field}` : ''}: ${issue}`);
      continue;
    }
    items++;
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
          `line ${record.line}, field ${field || '(item)'}: ${key === undefined ? issue.message : 'is not an import field'}`,
        );
      }
    }
    const clientId = record.item?.client_id;
    if (typeof clientId === 'string') {
      const first = clientIds.get(clientId);
      if (first !== undefined)
        problems.push(
          `line ${record.line}, field client_id: repeats the client_id of line ${first}; client_ids must be unique`,
        );
      else clientIds.set(clientId, record.line);
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
  return { items };
}
