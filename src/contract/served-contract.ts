/**
 * Reads the contract the API serves (`GET /public/v2/openapi.json`, spec 4.9) through the
 * run's client, so it takes a slot of the workspace's rate budget like any read, and says
 * whether it can be the document in force (docs/served-contract.md#what-is-read). One attempt:
 * a contract that cannot be read is a fallback and a warning, not worth a retry budget.
 */
import { createHash } from 'node:crypto';
import type { ApiClient } from '../client/api-client.ts';
import { textNestingDepth } from '../json/nesting-depth.ts';
import { readContractDocument, UnusableContractError, type ContractDocument } from './contract-document.ts';
import { missingStreamShape } from './stream-contracts.ts';

export const SERVED_CONTRACT_PATH = '/public/v2/openapi.json';
/** The largest served document aivis reads (design: over 5 MiB is unusable). */
const MAX_CONTRACT_BYTES = 5 * 1024 * 1024;
/**
 * The deepest nesting of a served document aivis reads (levels of objects and arrays, as
 * served): its text is kept whole in `_aivis_contracts`, whose JSON columns take 500 levels on
 * every destination (BigQuery's bound), and written with V8's recursive `JSON.stringify`.
 * Inside it, schemas nested past 64 levels are cut (`contract-document.ts`).
 */
export const MAX_CONTRACT_DEPTH = 500;

export type ServedContract =
  | {
      readonly usable: true;
      readonly document: ContractDocument;
      /** The document as served, as JSON text to store (integers exact, an echoed API key redacted). */
      readonly json: string;
      /** Hex SHA-256 of the body as served. */
      readonly sha256: string;
    }
  | { readonly usable: false; readonly reason: string };

/**
 * Whether a parsed document can be the document in force.
 * @returns the dereferenced document, or why it cannot be
 */
export async function usableContract(body: unknown): Promise<ContractDocument | string> {
  try {
    const document = await readContractDocument(body);
    return missingStreamShape(document) ?? document;
  } catch (error) {
    if (error instanceof UnusableContractError) return error.message;
    throw error;
  }
}

export async function readServedContract(client: Pick<ApiClient, 'request'>): Promise<ServedContract> {
  let text: string | undefined;
  let body: unknown;
  try {
    ({ text, body } = await client.request({ method: 'GET', path: SERVED_CONTRACT_PATH, retry: 'never' }));
  } catch (error) {
    return { usable: false, reason: (error as Error).message };
  }
  if (text === undefined) return { usable: false, reason: 'it is not JSON' };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CONTRACT_BYTES)
    return { usable: false, reason: `it is ${bytes} bytes, over the ${MAX_CONTRACT_BYTES} (5 MiB) aivis reads` };
  const depth = textNestingDepth(text);
  if (depth > MAX_CONTRACT_DEPTH)
    return {
      usable: false,
      reason: `it nests ${depth.toLocaleString('en-US')} levels deep, deeper than the ${MAX_CONTRACT_DEPTH} aivis reads`,
    };
  // `body` keeps integers beyond 2^53 exact (JSON.rawJSON): its text is what is stored, its plain parse what is read.
  const json = JSON.stringify(body);
  const document = await usableContract(JSON.parse(json));
  if (typeof document === 'string') return { usable: false, reason: document };
  return { usable: true, document, json, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}
