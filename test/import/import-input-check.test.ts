/**
 * Every input rule, checked before anything is sent: the error names the line and field,
 * the exit code is 2, and the sandbox saw no request at all.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCsvItems } from '../../src/import/csv-items.ts';
import { startHarness, type Harness } from './import-harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  expect(h.sandbox.stats.requests).toBe(0);
  await h.sandbox.close();
});

const long = (n: number) => 'x'.repeat(n);
const preview = (n: number) => `"${'x'.repeat(40)}"... (${n} characters)`;
const ok = (extra: Record<string, unknown>) => JSON.stringify({ prompt_text: 'What is the best CRM?', ...extra });

describe('input check', () => {
  it('names the line and field of every broken item rule in a JSONL file', async () => {
    const lines = [
      ok({ client_id: 'ok-1', tags: ['Discovery'] }),
      JSON.stringify({ prompt_text: '  hey  ' }),
      JSON.stringify({ prompt_text: long(2001) }),
      JSON.stringify({ client_id: 'no-text' }),
      '',
      ok({ client_id: 'bad id!' }),
      ok({ client_id: 'ok-1' }),
      ok({ tags: Array.from({ length: 21 }, (_, i) => `Discovery${i}`) }),
      ok({ tags: ['Discovery', long(81)] }),
      ok({ tags: ['Discovery', ' discovery '] }),
      ok({ tags: ['crm'] }),
      ok({ language: 'EN' }),
      ok({ search_intent: 'navigational' }),
      ok({ category: long(101), topic: long(121), seed_keyword: long(256) }),
      ok({ colour: 'red' }),
      '{"prompt_text": "broken',
      '["not", "an", "object"]',
    ];
    const file = await h.file('bad.jsonl', `${lines.join('\n')}\n`);
    const result = await h.run({ file });
    expect(result.code).toBe(2);
    expect(result.error).toBe(
      [
        `${file}: 17 problems; nothing was sent:`,
        'line 2, field prompt_text: must be 5 to 2000 characters after trimming (got 3)',
        'line 3, field prompt_text: must be 5 to 2000 characters after trimming (got 2001)',
        'line 4, field prompt_text: is missing',
        'line 6, field client_id: must be 1 to 128 letters, digits, ".", "_" or "-" (got "bad id!")',
        'line 7, field client_id: repeats the client_id of line 1; client_ids must be unique',
        'line 8, field tags: must be an array of at most 20 tags (got an array of 21 items)',
        `line 9, field tags[1]: must be a tag of at most 80 characters (got ${preview(81)})`,
        'line 10, field tags[1]: repeats tags[0] after normalization (got " discovery ")',
        'line 11, field tags: must hold at least one journey tag (Discovery, Comparison, Evaluation, Validation, Objections, Alternatives, Implementation) when classification is auto',
        'line 12, field language: must be a lowercase two-letter ISO 639-1 code such as en (got "EN")',
        'line 13, field search_intent: must be informational, commercial, transactional (got "navigational")',
        `line 14, field category: must be a string of at most 100 characters or null (got ${preview(101)})`,
        `line 14, field topic: must be a string of at most 120 characters or null (got ${preview(121)})`,
        `line 14, field seed_keyword: must be a string of at most 255 characters or null (got ${preview(256)})`,
        'line 15, field colour: is not an import field',
        'line 16: is not valid JSON (Unterminated string in JSON at position 23 (line 1 column 24))',
        'line 17: must be a JSON object such as {"prompt_text": "..."}',
      ].join('\n  '),
    );
  });

  it('reports CSV rows by the line they start on: field counts, unclosed quotes, multi-line cells', async () => {
    const file = await h.file(
      'bad.csv',
      'prompt_text,language\n"What is the best\nCRM?",en\n"What is the best ERP?",en,extra\n"hey",en\n"unterminated,en\n',
    );
    const result = await h.run({ file });
    expect(result.code).toBe(2);
    expect(result.error).toBe(
      [
        `${file}: 3 problems; nothing was sent:`,
        'line 4: has 3 fields; the header has 2',
        'line 5, field prompt_text: must be 5 to 2000 characters after trimming (got 3)',
        'line 6, field prompt_text: ends the file inside a quoted field that is never closed (missing ")',
      ].join('\n  '),
    );
  });

  it('parses CSV strictly: a stray quote is an error of its line and field, CR-only rows count as lines', async () => {
    const stray = await h.file(
      'stray.csv',
      'language,prompt_text\nen,What is "the best crm\nen,What is the best CRM?\n',
    );
    expect((await h.run({ file: stray })).error).toBe(
      `${stray}: 1 problem; nothing was sent:\n  line 2, field prompt_text: has a quote inside an unquoted field; quote the whole field and double the quote inside ("What is ""the best"" crm")`,
    );
    const crOnly = await h.file('mac.csv', 'prompt_text\rWhat is the best CRM?\rhey\r');
    expect((await h.run({ file: crOnly })).error).toBe(
      `${crOnly}: 1 problem; nothing was sent:\n  line 3, field prompt_text: must be 5 to 2000 characters after trimming (got 3)`,
    );
  });

  it('reads a spreadsheet export: a BOM before a quoted header, CRLF rows, doubled quotes, CRLF inside a quoted field', async () => {
    const file = await h.file(
      'excel.csv',
      [
        '\uFEFF"prompt_text",client_id,tags',
        '"What is the best\r\nCRM?",c1,Discovery|Comparison',
        '"Is ""Acme"" a good CRM?",c2,',
        '"A cell over\r\nthree\r\nlines",c3',
        '"hey",c4,',
        'What is "the best crm,c5,',
        '',
      ].join('\r\n'),
    );
    const records = [];
    for await (const record of readCsvItems(file)) records.push(record);
    expect(records).toEqual([
      {
        line: 2,
        item: { prompt_text: 'What is the best\r\nCRM?', client_id: 'c1', tags: ['Discovery', 'Comparison'] },
      },
      { line: 4, item: { prompt_text: 'Is "Acme" a good CRM?', client_id: 'c2' } },
      { line: 5, problem: { field: '', issue: 'has 2 fields; the header has 3' } },
      { line: 8, item: { prompt_text: 'hey', client_id: 'c4' } },
      {
        line: 9,
        problem: { field: 'prompt_text', issue: expect.stringMatching(/^has a quote inside an unquoted field/) },
      },
    ]);
    expect((await h.run({ file })).error).toBe(
      [
        `${file}: 3 problems; nothing was sent:`,
        'line 5: has 2 fields; the header has 3',
        'line 8, field prompt_text: must be 5 to 2000 characters after trimming (got 3)',
        'line 9, field prompt_text: has a quote inside an unquoted field; quote the whole field and double the quote inside ("What is ""the best"" crm")',
      ].join('\n  '),
    );
  });

  it('refuses input that is not UTF-8 text, naming the line (exit 2, nothing sent)', async () => {
    const latin1 = `${h.dir}/latin1.csv`;
    await writeFile(
      latin1,
      Buffer.concat([
        Buffer.from('prompt_text\nWhat is the best CRM?\nCaf'),
        Buffer.from([0xe9]),
        Buffer.from(' tools\n'),
      ]),
    );
    expect(await h.run({ file: latin1 })).toEqual({
      code: 2,
      out: '',
      error: `--file ${latin1}: line 3 is not valid UTF-8; save the file as UTF-8; nothing was sent`,
    });
    const jsonl = `${h.dir}/latin1.jsonl`;
    await writeFile(jsonl, Buffer.concat([Buffer.from('{"prompt_text": "Caf'), Buffer.from([0xe9, 0x22, 0x7d, 0x0a])]));
    expect((await h.run({ file: jsonl })).error).toBe(
      `--file ${jsonl}: line 1 is not valid UTF-8; save the file as UTF-8; nothing was sent`,
    );
    const utf16 = `${h.dir}/utf16.csv`;
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('prompt_text\n', 'utf16le')]));
    expect((await h.run({ file: utf16 })).error).toBe(
      `--file ${utf16}: line 1 starts with a UTF-16 byte order mark; save the file as UTF-8; nothing was sent`,
    );
    const noBom = `${h.dir}/utf16.jsonl`;
    await writeFile(noBom, Buffer.from('{"prompt_text": "x"}\n', 'utf16le'));
    expect((await h.run({ file: noBom })).error).toBe(
      `--file ${noBom}: line 1 holds a NUL byte (is the file UTF-16?); save the file as UTF-8; nothing was sent`,
    );
  });

  it('refuses a folder, a FIFO, a device and an endless line in bounded time and memory (exit 2)', async () => {
    const folder = `${h.dir}/folder.csv`;
    await mkdir(folder);
    expect(await h.run({ file: folder })).toMatchObject({
      code: 2,
      error: `--file ${folder}: is a folder, not a file; nothing was sent`,
    });
    const fifo = `${h.dir}/fifo.jsonl`;
    execFileSync('mkfifo', [fifo]);
    const notRegular =
      'is not a regular file (a FIFO, socket or device); the file is read twice, check then send; nothing was sent';
    expect(await h.run({ file: fifo })).toMatchObject({ code: 2, error: `--file ${fifo}: ${notRegular}` });
    const zero = `${h.dir}/zero.csv`;
    await symlink('/dev/zero', zero);
    expect(await h.run({ file: zero })).toMatchObject({ code: 2, error: `--file ${zero}: ${notRegular}` });
    const endless = `${h.dir}/endless.jsonl`;
    await writeFile(endless, 'x'.repeat(3 * 1024 * 1024));
    expect(await h.run({ file: endless })).toMatchObject({
      code: 2,
      error: `--file ${endless}: line 1 is longer than 1048576 bytes without a line break; is it the right file?; nothing was sent`,
    });
  });

  it('refuses unknown CSV columns, bad defaults flags, provided_only without a language, and unusable files', async () => {
    const header = await h.run({ file: await h.file('h.csv', 'prompt,lang\nx,y\n') });
    expect(header).toMatchObject({
      code: 2,
      error: expect.stringMatching(
        /h\.csv line 1: unknown column "prompt"; unknown column "lang"; the column "prompt_text" is missing \(columns: prompt_text, client_id, tags, language, search_intent, category, topic, seed_keyword\)$/,
      ),
    });
    const flags = await h.run({
      file: await h.file('a.csv', 'prompt_text\nzzzz qqqq xxxx\n'),
      classification: 'provided_only',
      'defaults-language': 'EN',
      'defaults-intent': 'buy',
    });
    expect(flags).toMatchObject({
      code: 2,
      error:
        'bad request defaults; nothing was sent:\n  --defaults-language: must be a lowercase two-letter ISO 639-1 code such as en (got "EN")\n  --defaults-intent: must be informational, commercial, transactional (got "buy")',
    });
    const noLanguage = await h.run({
      file: await h.file('b.csv', 'prompt_text\nzzzz qqqq xxxx\n'),
      classification: 'provided_only',
    });
    expect(noLanguage.error).toMatch(
      /b\.csv: 1 problem; nothing was sent:\n {2}line 2, field language: is missing \(classification provided_only needs a language on the item or in defaults\)$/,
    );
    expect(await h.run({ file: await h.file('p.txt', 'x') })).toMatchObject({
      code: 2,
      error: expect.stringMatching(/p\.txt: the file must end in \.csv or \.jsonl \(got "\.txt"\)$/),
    });
    expect(await h.run({ file: `${h.dir}/missing.csv` })).toMatchObject({
      code: 2,
      error: expect.stringMatching(/missing\.csv: the file does not exist or cannot be read$/),
    });
    expect(await h.run({ file: await h.file('e.csv', '') })).toMatchObject({
      code: 2,
      error: expect.stringMatching(/e\.csv is empty: expected a header row/),
    });
    expect(await h.run({ file: await h.file('n.jsonl', '\n\n') })).toMatchObject({
      code: 2,
      error: expect.stringMatching(/n\.jsonl holds no prompts; nothing was sent$/),
    });
    expect(
      await h.run({ file: await h.file('w.csv', 'prompt_text\nWhat is the best CRM?\n'), website: 'site-1' }),
    ).toMatchObject({ code: 2, error: '--website "site-1" is not a website id (they look like web_123)' });
  });
});
