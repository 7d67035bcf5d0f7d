/** Every V2 resource schema; `keys.ts` and `config.ts` are imported from their own files. */
export * from './common.ts';
export * from './website.ts';
export * from './analytics.ts';
export * from './mention.ts';
export * from './citation.ts';
export * from './error.ts';
export * from './prompt-import.ts';
export * from './prompt-import-receipt.ts';
export * from './query.ts';
export { formatIssues } from './format-issues.ts';
