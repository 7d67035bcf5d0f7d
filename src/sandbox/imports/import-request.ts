/**
 * Parses a POST body into the normalized request the service fingerprints and processes:
 * prompt text and tags trimmed (spec 4.7 rule 2). All four top-level keys are required (spec
 * 2.8: `items`, `defaults`, `classification`, `validate_only`; "send `{}` when unused"), so a
 * body missing one is refused rather than completed. Any broken rule is a 400 before an
 * operation exists (rule 1), with one `{ field, issue }` detail per problem.
 */
import type { z } from 'zod';
import { formatPath } from '../../../schemas/format-issues.ts';
import type { ErrorDetail } from '../http/api-error.ts';
import {
  promptImportRequestSchema,
  type PromptImportItem,
  type PromptImportRequest,
} from '../../../schemas/prompt-import.ts';

/** A request that passed every rule, in the form that is fingerprinted. */
export type ImportRequest = PromptImportRequest;

export type ParsedImportRequest =
  | { request: ImportRequest; details?: undefined }
  | { details: ErrorDetail[]; request?: undefined };

export function parseImportRequest(body: unknown): ParsedImportRequest {
  const parsed = promptImportRequestSchema.safeParse(body);
  if (!parsed.success) return { details: parsed.error.issues.flatMap(toDetails) };
  return { request: { ...parsed.data, items: parsed.data.items.map(trimItem) } };
}

function trimItem(item: PromptImportItem): PromptImportItem {
  const trimmed = { ...item, prompt_text: item.prompt_text.trim() };
  return item.tags ? { ...trimmed, tags: item.tags.map((tag) => tag.trim()) } : trimmed;
}

function toDetails(issue: z.core.$ZodIssue): ErrorDetail[] {
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => ({ field: formatPath([...issue.path, key]), issue: 'is not an allowed field' }));
  return [{ field: formatPath(issue.path) || 'body', issue: issue.message.slice(0, 256) }];
}
