/**
 * The two import calls through the shared API client: POST one partition's exact bytes with
 * its key, and GET a receipt until it is terminal, waiting `Retry-After` (at least the spec's
 * 2 seconds) between polls, and no longer than the processing deadline allows. 429/500/503
 * and lost responses are the client's retries (same bytes, same key; spec 4.7 rule 3 and 4.8).
 */
import { formatIssues } from '../../schemas/format-issues.ts';
import { promptImportReceiptEnvelopeSchema, type PromptImportReceipt } from '../../schemas/prompt-import-receipt.ts';
import type { ApiResponse, RequestOptions } from '../client/api-client.ts';
import type { Clock } from '../client/clock.ts';
import { parseRetryAfter } from '../client/retry-after.ts';
import { TOO_DEEP } from '../client/record-result.ts';
import { AivisError } from '../errors.ts';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../json/nesting-depth.ts';

/** What the importer needs of `ApiClient`. */
export interface ImportHttp {
  request(options: RequestOptions): Promise<ApiResponse>;
  /** The client's stop signal (SIGTERM): it ends the wait between two polls too. */
  readonly signal?: AbortSignal;
}

export const MIN_POLL_MS = 2000;

/** The spec's processing deadline of an import operation (part 8). */
export const PROCESSING_DEADLINE_MS = 30 * 60 * 1000;
/**
 * Polling goes on this long past the deadline: the service needs a moment to fail an
 * operation that ran out of time, and our clock may run a little ahead of its.
 */
export const DEADLINE_MARGIN_MS = 5 * 60 * 1000;

/** A receipt decoded, and as the API sent it (`_raw` of the receipt tables keeps every part, shown by the spec or not). */
export interface FetchedReceipt {
  receipt: PromptImportReceipt;
  raw: unknown;
}

export interface PostAnswer extends FetchedReceipt {
  /** Receipt path below the base URL, from `Location`. */
  receiptPath: string;
  /** 200: the operation was already terminal (a replay); 202: accepted or still running. */
  status: number;
}

function decode(response: ApiResponse, what: string): FetchedReceipt {
  const invalid = (why: string) =>
    new AivisError(
      `invalid receipt (${response.status}, request_id ${response.requestId ?? 'none'}) from ${what}: ${why}`,
    );
  // The receipt becomes `_raw` text; one too deep for that is refused like any invalid receipt.
  if (nestsDeeperThan(response.body, MAX_RECORD_DEPTH)) throw invalid(TOO_DEEP);
  const parsed = promptImportReceiptEnvelopeSchema.safeParse(response.body);
  if (!parsed.success) throw invalid(formatIssues(parsed.error));
  return { receipt: parsed.data.data as PromptImportReceipt, raw: (response.body as { data: unknown }).data };
}

/** `Location` may carry a base-path prefix; requests take the path from `/public/v2/` on. */
function receiptPathOf(location: unknown, receipt: PromptImportReceipt): string {
  const text = typeof location === 'string' ? location : '';
  const at = text.indexOf('/public/v2/');
  return at >= 0 ? text.slice(at) : `/public/v2/websites/${receipt.website_id}/prompt-imports/${receipt.id}`;
}

export async function postPartition(
  http: ImportHttp,
  websiteId: string,
  key: string,
  body: Uint8Array,
): Promise<PostAnswer> {
  const path = `/public/v2/websites/${encodeURIComponent(websiteId)}/prompts:import`;
  const response = await http.request({
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body,
  });
  const fetched = decode(response, `POST ${path}`);
  return {
    ...fetched,
    receiptPath: receiptPathOf(response.headers.location, fetched.receipt),
    status: response.status,
  };
}

export const isTerminal = (receipt: PromptImportReceipt) =>
  receipt.status === 'succeeded' || receipt.status === 'failed';

/**
 * Polls until `succeeded` or `failed`; a 404 (expired or unknown receipt) propagates as
 * ApiError. `acceptedAt` is when this client learned the operation was accepted (on its own
 * clock): an operation still running at `acceptedAt` + the 30-minute deadline + the margin
 * will not finish, and polling it on would never end, so that is an AivisError (exit 1).
 */
export async function pollReceipt(
  http: ImportHttp,
  clock: Clock,
  path: string,
  acceptedAt: number,
  onProgress?: (receipt: PromptImportReceipt) => void,
): Promise<FetchedReceipt> {
  const giveUpAt = acceptedAt + PROCESSING_DEADLINE_MS + DEADLINE_MARGIN_MS;
  for (;;) {
    const response = await http.request({ method: 'GET', path });
    const fetched = decode(response, `GET ${path}`);
    const { receipt } = fetched;
    if (isTerminal(receipt)) return fetched;
    onProgress?.(receipt);
    const now = clock.now();
    if (now >= giveUpAt) {
      const minutes = Math.floor((now - acceptedAt) / 60_000);
      throw new AivisError(
        `import ${receipt.id} is still ${receipt.status} ${minutes} minutes after it was accepted, past the service's 30-minute processing deadline; ` +
          `polling stopped (request_id ${response.requestId ?? 'none'}). The journal keeps its receipt: run the same command later to poll it again`,
      );
    }
    const wait = parseRetryAfter(response.headers['retry-after'], now) ?? MIN_POLL_MS;
    await clock.sleep(Math.min(Math.max(MIN_POLL_MS, wait), Math.max(MIN_POLL_MS, giveUpAt - now)), http.signal);
  }
}
