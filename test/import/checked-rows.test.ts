/** Pass two hands on only the rows pass one checked, a chunk of 1,000 at a time. */
import { describe, expect, it } from 'vitest';
import { CheckedRows } from '../../src/import/checked-rows.ts';
import type { InputRecord } from '../../src/import/input-record.ts';

const row = (line: number, text = `Prompt ${line}?`): InputRecord => ({
  line,
  row: `row ${line}`,
  item: { prompt_text: text },
});
const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i + 1));

async function* stream(records: InputRecord[]) {
  yield* records;
}

function checked(records: InputRecord[]): CheckedRows {
  const fingerprints = new CheckedRows();
  for (const record of records) fingerprints.add(record);
  fingerprints.finish();
  return fingerprints;
}

/** What pass two handed on before it stopped, and why it stopped. */
async function secondPass(first: InputRecord[], second: InputRecord[]) {
  const handed: number[] = [];
  try {
    for await (const record of checked(first).unchanged(stream(second), 'table:t')) handed.push(record.line);
    return { handed: handed.length };
  } catch (error) {
    return { handed: handed.length, error: (error as Error).message };
  }
}

const stop = (from: number) =>
  `table:t: the rows changed while aivis read them (from row ${from} on, they are not the rows it checked); no row from there on was sent: run the same command again, on rows that hold still while it runs`;

describe('CheckedRows', () => {
  it('hands on every row when the second read is the first', async () => {
    expect(await secondPass(rows(2500), rows(2500))).toEqual({ handed: 2500 });
  });

  it('stops at the chunk holding a changed row, handing on the chunks before it', async () => {
    const changed = rows(2500);
    changed[1500] = row(1501, 'Another prompt?');
    expect(await secondPass(rows(2500), changed)).toEqual({ handed: 1000, error: stop(1001) });
  });

  it('stops when rows were added or are missing, handing on none past the last full chunk that matched', async () => {
    expect(await secondPass(rows(2000), rows(2001))).toEqual({ handed: 2000, error: stop(2001) });
    expect(await secondPass(rows(2001), rows(2000))).toEqual({ handed: 2000, error: stop(2001) });
    expect(await secondPass(rows(10), rows(11))).toEqual({ handed: 0, error: stop(1) });
  });
});
