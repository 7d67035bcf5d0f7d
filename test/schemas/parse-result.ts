import type { z } from 'zod';
import { formatIssues } from '../../schemas/format-issues.ts';

/** 'ok' or the exact `formatIssues` line: what a user reads in `_aivis_rejected.error`. */
export function outcome(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : formatIssues(result.error);
}
