/** Says what a number field accepts, in words: "a whole number from 1 to 6000". */
import { z } from 'zod';

interface BoundCheck {
  check: string;
  value?: unknown;
  inclusive?: boolean;
}

/** "a whole number from 1 to 6000", "a number greater than 0 and at most 600". */
export function describeNumber(schema: z.ZodType | undefined): string {
  const noun = schema instanceof z.ZodNumber && schema.isInt ? 'a whole number' : 'a number';
  if (!(schema instanceof z.ZodNumber)) return noun;
  const checks = (schema.def.checks ?? []).map((c) => c._zod.def as BoundCheck);
  const lower = checks.find((c) => c.check === 'greater_than');
  const upper = checks.find((c) => c.check === 'less_than');
  if (lower?.inclusive && upper?.inclusive) return `${noun} from ${String(lower.value)} to ${String(upper.value)}`;
  const parts = [
    lower && `${lower.inclusive ? 'at least' : 'greater than'} ${String(lower.value)}`,
    upper && `${upper.inclusive ? 'at most' : 'less than'} ${String(upper.value)}`,
  ].filter(Boolean);
  return parts.length ? `${noun} ${parts.join(' and ')}` : noun;
}
