/**
 * A `requests_per_minute` above the API's own limit (100 requests per minute per workspace,
 * across all its keys: docs/configuration.md) is accepted but said: the API answers the excess
 * with 429 and aivis waits it out, so a higher setting only buys refusals. A server on this
 * machine is no exception: the sandbox enforces the API's limit too (docs/sandbox.md).
 */
import type { ConfigPath } from './config-issue.ts';
import type { LineOf } from './yaml-positions.ts';

/** The request rate the API allows one workspace (spec: rate limits). */
export const API_REQUESTS_PER_MINUTE = 100;

interface RatedSource {
  readonly requests_per_minute?: number | undefined;
}

/** One warning per source block whose rate is above the API's limit, with its file and line. */
export function rateWarnings(
  file: string,
  blocks: readonly { path: ConfigPath; source: RatedSource }[],
  lineOf: LineOf,
): string[] {
  return blocks.flatMap(({ path, source }) => {
    const rate = source.requests_per_minute;
    if (rate === undefined || rate <= API_REQUESTS_PER_MINUTE) return [];
    const key = [...path, 'requests_per_minute'];
    return [
      `${file}:${lineOf(key)}: ${key.join('.')} ${rate} is above the API's limit of ${API_REQUESTS_PER_MINUTE} requests per minute per workspace: ` +
        `the API refuses the excess (429) and aivis waits, so syncs get no faster; set ${API_REQUESTS_PER_MINUTE} or less`,
    ];
  });
}
