/**
 * One line a data engineer can act on, for `_aivis_rejected.error` and CLI errors: each issue
 * as `path: what is wrong`, e.g.
 * `counts.brand_citations: must be an integer from 0 to 9007199254740991 or null (got -1)`.
 * The schemas' own messages carry the rule and a short preview of the value; records are never
 * dumped whole.
 */
import type { z } from 'zod';

/** Enough to see the pattern of a bad record without one error swallowing the column. */
const MAX_LISTED = 10;

export function formatIssues(error: z.ZodError): string {
  // One rule can fail several zod checks (9007199254740992 is both unsafe and too big): say it once.
  const lines = [...new Set(error.issues.flatMap(describe))];
  const listed = lines.slice(0, MAX_LISTED);
  if (lines.length > MAX_LISTED) listed.push(`and ${lines.length - MAX_LISTED} more issues`);
  return listed.join('; ');
}

function describe(issue: z.core.$ZodIssue): string[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${formatPath([...issue.path, key])}: is not an allowed field`);
  }
  const path = formatPath(issue.path);
  return [path === '' ? issue.message : `${path}: ${issue.message}`];
}

/** `items[3].tags[0]`, `meta.data_quality.is_partial`; odd keys quoted: `reasons["a b"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}
