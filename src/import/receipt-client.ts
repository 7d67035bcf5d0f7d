/**
 * The two import calls through the shared API client: POST one partition's exact bytes with
 * its key, and GET a receipt until it is terminal, waiting `Retry-After` (at least the spec's
 * 2 seconds) between polls. 429/500/503 and lost responses are the client's retries (same
 * bytes, same key; spec 4.7 rule 3 and 4.8).
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
  const invalid = (why: string) => new AivisError(`invalid receipt (${response.status}, request_id ${response.requestId ?? 'none'}) from ${what}: ${why}`);
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

export async function postPartition(http: ImportHttp, websiteId: string, key: string, body: Uint8Array): Promise<PostAnswer> {
  const path = `/public/v2/websites/${encodeURIComponent(websiteId)}/prompts:import`;
  const response = await http.request({ method: 'POST', path, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key }, body });
  const fetched = decode(response, `POST ${path}`);
  return { ...fetched, receiptPath: receiptPathOf(response.headers.location, fetched.receipt), status: response.status };
}

export const isTerminal = (receipt: PromptImportReceipt) => receipt.status === 'succeeded' || receipt.status === 'failed';

/** Polls until `succeeded` or `failed`; a 404 (expired or unknown receipt) propagates as ApiError. */
export async function pollReceipt(http: ImportHttp, clock: Clock, path: string, onProgress?: (receipt: PromptImportReceipt) => void): Promise<FetchedReceipt> {
  for (;;) {
    const response = await http.request({ method: 'GET', path });
    const fetched = decode(response, `GET ${path}`);
    if (isTerminal(fetched.receipt)) return fetched;
    onProgress?.(fetched.receipt);
    const wait = parseRetryAfter(response.headers['retry-after'], clock.now()) ?? MIN_POLL_MS;
    await clock.sleep(Math.max(MIN_POLL_MS, wait), http.signal);
  }
}
