/**
 * Error texts for the resource schemas. Each rule carries its own message so `formatIssues`
 * reads the same whoever parses (sync engine, sandbox, importer), without a global zod config
 * that would also change other schemas' messages.
 */

const PREVIEW_CHARS = 40;

/**
 * A short, safe description of an offending value for an error line: scalars as JSON, long
 * strings cut, objects and arrays only by kind, so a rejected record is never dumped whole.
 * @example preview(-1) // '-1'; preview({ a: 1 }) // 'an object'
 */
export function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const chars = [...value];
    if (chars.length <= PREVIEW_CHARS) return JSON.stringify(value);
    return `${JSON.stringify(chars.slice(0, PREVIEW_CHARS).join(''))}... (${chars.length} characters)`;
  }
  return String(value);
}

/** The part of a zod raw issue the messages need. */
interface IssueInput {
  readonly input?: unknown;
}

/**
 * The zod `error` function of a rule: "must be <rule> (got <value>)", or "is missing" when the
 * key is absent. Set on the schema, it covers its type check and every refinement after it.
 * @example z.int({ error: mustBe('an integer from 0 to 9007199254740991 or null') })
 */
export function mustBe(rule: string): (issue: IssueInput) => string {
  return (issue) => (issue.input === undefined ? 'is missing' : `must be ${rule} (got ${preview(issue.input)})`);
}

/** `mustBe` for a value that may be null but must be present: says so when the key is absent. */
export function mustBeOrNull(rule: string): (issue: IssueInput) => string {
  const present = mustBe(`${rule} or null`);
  return (issue) => (issue.input === undefined ? 'is missing (send null when there is no value)' : present(issue));
}
