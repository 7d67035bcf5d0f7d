/**
 * JSONL input: one JSON object per line, item fields as in the API (spec 2.8); blank lines
 * skipped. The file is read as checked UTF-8 lines (`input-file.ts`).
 */
import { createInterface } from 'node:readline';
import { openInputFile } from './input-file.ts';
import type { InputRecord } from './input-record.ts';

export async function* readJsonlItems(path: string): AsyncGenerator<InputRecord> {
  let line = 0;
  const lines = createInterface({ input: await openInputFile(path), crlfDelay: Infinity });
  for await (const text of lines) {
    line++;
    const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      yield { line, problem: { field: '', issue: `is not valid JSON (${(error as Error).message})` } };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { line, problem: { field: '', issue: 'must be a JSON object such as {"prompt_text": "..."}' } };
      continue;
    }
    yield { line, item: value as Record<string, unknown> };
  }
}
