/**
 * The contract aivis is built with (`schemas/openapi.json`, made from the same zod schemas that
 * validate records): the last fallback of the document in force and what drift is measured
 * against. Built in memory once per process; no file is read.
 */
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { readContractDocument, type ContractDocument } from './contract-document.ts';

let bundled: Promise<ContractDocument> | undefined;

export function bundledContract(): Promise<ContractDocument> {
  bundled ??= readContractDocument(buildOpenApiDocument());
  return bundled;
}
