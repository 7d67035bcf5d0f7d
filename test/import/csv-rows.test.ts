/** The streamed CSV reader: RFC 4180 quoting, CRLF, a BOM, and rows reported where they start. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../src/import/csv-rows.ts';

async function rows(text: string) {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'aivis-csv-')), 'x.csv');
  await writeFile(file, text);
  const out = [];
  for await (const row of readCsvRows(file)) out.push(row);
  return out;
}

describe('readCsvRows', () => {
  it('reads quoted commas, doubled quotes and line breaks inside quotes, with the starting line', async () => {
    expect(await rows('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n"two\nlines",z\n\n  last ,"" \n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['two\nlines', 'z'] },
      { line: 6, fields: ['  last ', ' '] },
    ]);
  });

  it('keeps a final row without a newline and flags an unclosed quote', async () => {
    expect(await rows('a\nb')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: ['b'] },
    ]);
    expect(await rows('a\n"open\nstill open')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: ['open\nstill open'], unterminated: true },
    ]);
  });
});
