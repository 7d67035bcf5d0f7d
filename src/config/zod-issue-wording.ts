/**
 * Turns zod's issues into sentences a data engineer reads once and fixes:
 * `source.requests_per_minute must be a whole number from 1 to 6000 (got 0)`,
 * `unknown key "stream" in destination (allowed: type, url, schema)`.
 */
import type { z } from 'zod';
import { preview } from '../../schemas/issue-message.ts';
import { maskUrlCredentials } from '../log/redact.ts';
import { formatPath } from '../../schemas/format-issues.ts';
import type { ConfigIssue, ConfigPath } from './config-issue.ts';
import { valueAt } from './data-path.ts';
import { closestMatch } from './closest-match.ts';
import { describeNumber } from './number-wording.ts';
import { allowedKeysAt, schemaAt } from './schema-lookup.ts';
import type { LineOf } from './yaml-positions.ts';

/** Everything the wording needs besides the issue: the schema, the data and the lines. */
export interface WordingContext {
  schema: z.ZodType;
  data: unknown;
  lineOf: LineOf;
}

/** One config issue per zod issue; one per key for an unknown-keys issue. */
export function wordZodIssues(issues: readonly z.core.$ZodIssue[], context: WordingContext): ConfigIssue[] {
  return issues.flatMap((issue) => {
    const path = issue.path as (string | number)[];
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeysAt(context.schema, path, context.data);
      return issue.keys.map((key) => at([...path, key], unknownKey(key, path, allowed), context));
    }
    return [at(path, wordIssue(issue, path, context), context)];
  });
}

function at(path: ConfigPath, message: string, context: WordingContext): ConfigIssue {
  return { path, line: context.lineOf(path), message };
}

function unknownKey(key: string, parent: ConfigPath, allowed: readonly string[]): string {
  const where = parent.length ? `in ${formatPath(parent)}` : 'at the top level';
  const suggestion = closestMatch(key, allowed);
  const hint = suggestion ? `, did you mean "${suggestion}"?` : '';
  if (!allowed.length) return `unknown key "${key}" ${where}, which takes no keys`;
  return `unknown key "${key}" ${where}${hint} (allowed: ${allowed.join(', ')})`;
}

function wordIssue(issue: z.core.$ZodIssue, path: ConfigPath, context: WordingContext): string {
  const subject = path.length ? formatPath(path) : 'the config';
  const value = valueAt(context.data, path);
  const got = ` (got ${describeValue(value)})`;
  switch (issue.code) {
    case 'invalid_type':
      if (!path.length && value == null)
        return 'the file is empty: a config needs at least source.base_url and source.api_key';
      if (value === undefined) return `${subject} is required`;
      // A file holding one bare value is most often a key file passed as the config: its text
      // is the secret itself, and it is not registered for redaction, so none of it is shown.
      if (!path.length && typeof value !== 'object')
        return `${subject} must be ${expectation(issue.expected, path, context)} (got one bare value, not shown: is this a key file rather than the config?)`;
      if (issue.expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
        // YAML reads `project: 12345` as a number and `true` as a boolean; quotes keep them text.
        return `${subject} must be text (got ${describeValue(value)}; write it in quotes: "${String(value)}")`;
      }
      return `${subject} must be ${expectation(issue.expected, path, context)}${got}`;
    case 'too_small':
    case 'too_big':
      return `${subject} must ${sizeRule(issue, path, context)}${got}`;
    case 'invalid_value':
      return oneOf(subject, issue.values.map(String), value);
    case 'invalid_union':
      // zod 4 reports an unknown discriminator (`destination.type`) as a union issue with a note.
      if ((issue as { note?: string }).note === 'No matching discriminator') {
        const options = ((issue as { options?: unknown[] }).options ?? []).map(String);
        return value === undefined
          ? `${subject} is required (one of ${options.join(', ')})`
          : oneOf(subject, options, value);
      }
      return `${subject}: ${issue.message}${got}`;
    case 'invalid_key': {
      // A record's key (a workspace name under `sources`): the key's own rule says what is wrong.
      const rule = issue.issues[0]?.message ?? issue.message;
      return `${formatPath(path.slice(0, -1))} names the workspace "${String(path.at(-1))}", whose name ${rule}`;
    }
    case 'invalid_format':
      // Our schema's own messages already read "must be ..."; zod's defaults ("Invalid URL") do not.
      if (issue.message.startsWith('must')) return `${subject} ${issue.message}${got}`;
      return `${subject} must be a valid ${issue.format === 'url' ? 'URL such as https://example.com' : issue.format}${got}`;
    default:
      // A rule of our schema that reads as a sentence after its key: `destination.url is not a URL: ...`.
      if (path.length && /^(?:is|must) /.test(issue.message)) return `${subject} ${issue.message}`;
      return path.length ? `${subject}: ${issue.message}` : issue.message;
  }
}

/** `... must be one of a, b (got "x")`, with the closest option when "x" looks like a typo. */
function oneOf(subject: string, options: readonly string[], value: unknown): string {
  const suggestion = typeof value === 'string' ? closestMatch(value, options) : undefined;
  const hint = suggestion ? `; did you mean "${suggestion}"?` : '';
  return `${subject} must be one of ${options.join(', ')} (got ${describeValue(value)}${hint})`;
}

function expectation(expected: string, path: ConfigPath, context: WordingContext): string {
  const schema = schemaAt(context.schema, path, context.data);
  switch (expected) {
    case 'number':
    case 'int':
      return describeNumber(schema);
    case 'string':
      return 'text';
    case 'array':
      return 'a list';
    case 'object': {
      const keys = allowedKeysAt(context.schema, path, context.data);
      if (keys.length) return `a mapping with keys from: ${keys.join(', ')}`;
      return schemaAt(context.schema, path, context.data) ? 'an empty mapping {}' : 'a mapping';
    }
    default:
      return expected;
  }
}

function sizeRule(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  path: ConfigPath,
  context: WordingContext,
): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'number':
      return `be ${describeNumber(schemaAt(context.schema, path, context.data))}`;
    case 'array':
      return `list ${small ? 'at least' : 'at most'} ${bound} item${bound === 1 ? '' : 's'}`;
    case 'string':
      return small && bound === 1 ? 'not be empty' : `be ${small ? 'at least' : 'at most'} ${bound} characters long`;
    default:
      return `be ${small ? 'at least' : 'at most'} ${bound}`;
  }
}

/** A value as the user wrote it, with YAML's words for structures (a list, a mapping). */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  // Masked before it is cut short: a cut could end inside the password, where no pattern finds it.
  return preview(typeof value === 'string' ? maskUrlCredentials(value) : value);
}
