/**
 * The stand-in behaves like BigQuery where the connector's correctness depends on it, seen
 * through the real `@google-cloud/bigquery` client.
 */
import { BigQuery } from '@google-cloud/bigquery';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBigqueryStandIn, type BigqueryStandIn } from './bigquery-stand-in.ts';
import { fakeAuthClient } from './fake-auth.ts';

let standIn: BigqueryStandIn;
let bigquery: BigQuery;

beforeAll(async () => {
  standIn = await startBigqueryStandIn();
  bigquery = new BigQuery({
    projectId: standIn.projectId,
    apiEndpoint: standIn.url,
    authClient: fakeAuthClient(),
    location: 'US',
  });
  await bigquery.dataset('ds').create({ location: 'US' });
  await bigquery.dataset('ds').createTable('t', {
    schema: {
      fields: [
        { name: 'id', type: 'STRING', mode: 'REQUIRED' },
        { name: 'n', type: 'INT64' },
        { name: 'ts', type: 'TIMESTAMP' },
        { name: 'j', type: 'JSON' },
      ],
    },
  });
  await bigquery.dataset('ds').createTable('s', {
    schema: {
      fields: [
        { name: 'id', type: 'STRING' },
        { name: 'n', type: 'INT64' },
        { name: 'ts', type: 'TIMESTAMP' },
        { name: 'j', type: 'STRING' },
      ],
    },
  });
});

afterAll(async () => {
  await standIn?.close();
});

async function load(table: string, ndjson: string): Promise<void> {
  const { Readable } = await import('node:stream');
  const { pipeline } = await import('node:stream/promises');
  await pipeline(
    Readable.from([ndjson]),
    bigquery.dataset('ds').table(table).createWriteStream({ sourceFormat: 'NEWLINE_DELIMITED_JSON' }),
  );
}

const raw = async (sql: string, params?: Record<string, unknown>) => {
  const [job] = await bigquery.createQueryJob({ query: sql, ...(params ? { params } : {}) });
  const [rows, , response] = (await job.getQueryResults({
    skipParsing: true,
    autoPaginate: false,
  } as object)) as unknown as [{ f: { v: string | null }[] }[], unknown, Record<string, unknown>];
  return { rows: rows.map((r) => r.f.map((c) => c.v)), response };
};

describe('BigQuery stand-in', () => {
  it('loads NDJSON through a multipart load job and keeps int64 exact; TIMESTAMP cells are int64 micros', async () => {
    await load('s', '{"id":"a","n":"9007199254740993","ts":"2026-01-02T03:04:05.123456Z","j":"{\\"k\\":1}"}\n');
    const { rows, response } = await raw('SELECT id, n, ts, j FROM `aivis-test.ds.s` ORDER BY id');
    expect(rows).toEqual([['a', '9007199254740993', '1767323045123456', '{"k":1}']]);
    expect((response.schema as { fields: unknown[] }).fields).toEqual([
      { name: 'id', type: 'STRING', mode: 'NULLABLE' },
      { name: 'n', type: 'INT64', mode: 'NULLABLE' },
      { name: 'ts', type: 'TIMESTAMP', mode: 'NULLABLE' },
      { name: 'j', type: 'STRING', mode: 'NULLABLE' },
    ]);
  });

  it('answers an array as a REPEATED field of {v} cells (the client parses it to an array), NULL as empty; refuses a NULL element', async () => {
    await bigquery.dataset('ds').createTable('arrays', {
      schema: {
        fields: [
          { name: 'id', type: 'STRING' },
          { name: 'tags', type: 'STRING', mode: 'REPEATED' },
        ],
      },
    });
    await bigquery.query(
      "INSERT INTO `aivis-test.ds.arrays` VALUES ('a', ['crm', 'Comparison']), ('b', []), ('c', NULL)",
    );
    const { rows, response } = await raw('SELECT id, tags, [1, 2] AS n FROM `aivis-test.ds.arrays` ORDER BY id');
    expect(rows).toEqual([
      ['a', [{ v: 'crm' }, { v: 'Comparison' }], [{ v: '1' }, { v: '2' }]],
      ['b', [], [{ v: '1' }, { v: '2' }]],
      ['c', [], [{ v: '1' }, { v: '2' }]],
    ]);
    expect((response.schema as { fields: unknown[] }).fields).toEqual([
      { name: 'id', type: 'STRING', mode: 'NULLABLE' },
      { name: 'tags', type: 'STRING', mode: 'REPEATED' },
      { name: 'n', type: 'INT64', mode: 'REPEATED' },
    ]);
    const [parsed] = await bigquery.query("SELECT tags FROM `aivis-test.ds.arrays` WHERE id = 'a'");
    expect(parsed).toEqual([{ tags: ['crm', 'Comparison'] }]);
    await expect(bigquery.query("SELECT ['a', NULL] AS tags")).rejects.toThrow(
      'Array cannot have a null element; error in writing field tags',
    );
  });

  it('fails a load job that names a field the table lacks, with the job error BigQuery gives', async () => {
    await expect(load('s', '{"id":"b","nope":1}\n')).rejects.toThrow(
      'Error while reading data, error message: JSON parsing error in row starting at position 0: No such field: nope.',
    );
  });

  it('refuses a TIMESTAMP beyond microseconds in a load job, a query parameter and a literal, in BigQuery words', async () => {
    const line2 = '{"id":"n2","n":null,"ts":"2026-01-02T03:04:05.123456789Z","j":null}\n';
    await expect(
      load('s', `{"id":"n1","n":null,"ts":"2026-01-02T03:04:05.123456Z","j":null}\n${line2}`),
    ).rejects.toThrow(
      'Error while reading data, error message: JSON parsing error in row starting at position 65: ' +
        "Could not parse '2026-01-02T03:04:05.123456789Z' as a timestamp. Required format is YYYY-MM-DD HH:MM[:SS[.SSSSSS]] " +
        'Field: ts; Value: 2026-01-02T03:04:05.123456789Z',
    );
    // Nothing of a failed load lands.
    expect((await raw("SELECT COUNT(*) FROM `aivis-test.ds.s` WHERE id IN ('n1', 'n2')")).rows).toEqual([['0']]);
    await expect(
      bigquery.createQueryJob({
        query: 'SELECT @t AS t',
        params: { t: bigquery.timestamp('2026-01-02T03:04:05.123456789Z') },
      }),
    ).rejects.toMatchObject({
      message: "Invalid timestamp: '2026-01-02T03:04:05.123456789Z'",
      errors: [{ reason: 'invalidQuery' }],
    });
    await expect(raw("SELECT TIMESTAMP '2026-01-02 03:04:05.1234567+00' AS t")).rejects.toThrow(
      'Invalid TIMESTAMP literal',
    );
    // Six digits are fine everywhere.
    await expect(raw("SELECT TIMESTAMP '2026-01-02 03:04:05.123456+00' AS t")).resolves.toMatchObject({
      rows: [['1767323045123456']],
    });
  });

  it('PARSE_JSON keeps values, not text, and writes them back as BigQuery does', async () => {
    const parse = async (text: string, mode?: 'exact' | 'round') =>
      (await raw(`SELECT PARSE_JSON(@j${mode ? `, wide_number_mode=>'${mode}'` : ''}) AS j`, { j: text })).rows[0]![0];
    // The examples of PARSE_JSON's reference page.
    expect(await parse('{"coordinates": [10, 20], "id": 1}')).toBe('{"coordinates":[10,20],"id":1}');
    expect(await parse('{"id": 922337203685477580701}', 'round')).toBe('{"id":9.223372036854776e+20}');
    await expect(parse('{"id": 922337203685477580701}')).rejects.toThrow(
      'Input number: 922337203685477580701 cannot round-trip through string representation',
    );
    await expect(parse('{"id": 922337203685477580701}', 'exact')).rejects.toThrow('cannot round-trip');
    // The JSON type's canonicalization: whitespace dropped, members in key order, the first of
    // duplicate keys kept, integers exact within INT64/UINT64, other numbers as FLOAT64.
    expect(
      await parse(
        '{ "b" : 1, "a": [1.50, 1e2, -0, 9223372036854775807, 18446744073709551615, 0.1, 0.0001, 1e-7, 1e15, -1.5e10, 123456789012345678901], "a": "dup", "s": "\\u00e9\\/\\n" }',
        'round',
      ),
    ).toBe(
      '{"a":[1.5,100.0,0,9223372036854775807,18446744073709551615,0.1,0.0001,1e-07,1e+15,-15000000000.0,1.2345678901234568e+20],"b":1,"s":"é/\\n"}',
    );
  });

  it('rejects a MERGE whose source matches one target row with several source rows', async () => {
    await load('s', '{"id":"a","n":"2","ts":null,"j":null}\n');
    const merge = [
      'MERGE INTO `aivis-test.ds.t` AS T USING (SELECT * FROM `aivis-test.ds.s`) AS S ON T.`id` = S.`id`',
      'WHEN MATCHED THEN UPDATE SET `n` = S.`n`',
      "WHEN NOT MATCHED THEN INSERT (`id`, `n`, `ts`, `j`) VALUES (S.`id`, S.`n`, S.`ts`, PARSE_JSON(S.`j`, wide_number_mode=>'round'))",
    ].join('\n');
    // Empty target: nothing matched twice yet, both rows insert (as in BigQuery).
    await expect(raw(merge)).resolves.toMatchObject({ response: { numDmlAffectedRows: '2' } });
    await expect(raw(merge)).rejects.toThrow('UPDATE/MERGE must match at most one source row for each target row');
  });

  it('rejects a STRING assigned to a JSON column (PARSE_JSON is required), an unknown column and a missing table', async () => {
    await expect(
      raw(
        'MERGE INTO `aivis-test.ds.t` AS T USING (SELECT * FROM `aivis-test.ds.s` WHERE FALSE) AS S ON T.`id` = S.`id`\nWHEN NOT MATCHED THEN INSERT (`id`, `j`) VALUES (S.`id`, S.`j`)',
      ),
    ).rejects.toThrow('Value of type STRING cannot be assigned to j, which has type JSON');
    await expect(raw('SELECT nope FROM `aivis-test.ds.t`')).rejects.toThrow('Unrecognized name: nope');
    await expect(raw('SELECT 1 FROM `aivis-test.ds.missing`')).rejects.toMatchObject({
      message: 'Not found: Table aivis-test:ds.missing',
      errors: [{ reason: 'notFound' }],
    });
  });

  it('answers 404 for a missing table and 403 in BigQuery words for a denied permission', async () => {
    const [exists] = await bigquery.dataset('ds').table('missing').exists();
    expect(exists).toBe(false);
    standIn.deny('bigquery.tables.create');
    try {
      await expect(
        bigquery.dataset('ds').createTable('x', { schema: { fields: [{ name: 'a', type: 'STRING' }] } }),
      ).rejects.toMatchObject({
        code: 403,
        message:
          'Access Denied: Dataset aivis-test:ds: Permission bigquery.tables.create denied on dataset aivis-test:ds (or it may not exist).',
      });
    } finally {
      standIn.allowAll();
    }
  });

  it('answers a dry run with the statement type, runs nothing and keeps no job; several statements are a SCRIPT', async () => {
    const dryRun = async (query: string) => {
      const [job] = await bigquery.createQueryJob({ query, dryRun: true });
      return (job.metadata.statistics as { query: { statementType: string } }).query.statementType;
    };
    const jobs = standIn.jobs.length;
    expect(await dryRun('SELECT id FROM `aivis-test.ds.t`')).toBe('SELECT');
    expect(await dryRun("INSERT INTO `aivis-test.ds.t` (id) VALUES ('dry')")).toBe('INSERT');
    expect(await dryRun('DELETE FROM `aivis-test.ds.t` WHERE TRUE')).toBe('DELETE');
    expect(await dryRun('SELECT 1; SELECT 2')).toBe('SCRIPT');
    expect(standIn.jobs.length).toBe(jobs);
    expect((await raw("SELECT COUNT(*) AS n FROM `aivis-test.ds.t` WHERE id = 'dry'")).rows).toEqual([['0']]);
    await expect(dryRun('SELECT id FROM `aivis-test.ds.missing`')).rejects.toMatchObject({ code: 404 });
  });

  it('refuses a query that reads a table without bigquery.tables.getData, as BigQuery does, and an INSERT of values needs none', async () => {
    await bigquery.dataset('ds').createTable('readable', { schema: { fields: [{ name: 'a', type: 'STRING' }] } });
    standIn.deny('bigquery.tables.getData');
    try {
      await expect(raw('SELECT a FROM `aivis-test.ds.readable`')).rejects.toMatchObject({
        message:
          'Access Denied: Dataset aivis-test:ds: Permission bigquery.tables.getData denied on dataset aivis-test:ds (or it may not exist).',
      });
      await raw("INSERT INTO `aivis-test.ds.readable` (a) VALUES ('x')");
    } finally {
      standIn.allowAll();
    }
  });

  it('adds NULLABLE columns through tables.patch and refuses a REQUIRED one', async () => {
    const table = bigquery.dataset('ds').table('t');
    const [metadata] = await table.getMetadata();
    const fields = metadata.schema.fields as object[];
    await table.setMetadata({ schema: { fields: [...fields, { name: 'extra', type: 'BOOL', mode: 'NULLABLE' }] } });
    await expect(
      table.setMetadata({
        schema: {
          fields: [...fields, { name: 'extra', type: 'BOOL' }, { name: 'req', type: 'STRING', mode: 'REQUIRED' }],
        },
      }),
    ).rejects.toThrow('Cannot add required fields to an existing schema. (field: req)');
    // Two rows: the MERGE test above inserted both staged copies of `a` into the empty table.
    const { rows } = await raw('SELECT id, extra FROM `aivis-test.ds.t` ORDER BY id');
    expect(rows).toEqual([
      ['a', null],
      ['a', null],
    ]);
  });
});

describe('BigQuery stand-in: what the live check reads', () => {
  it('refuses to delete a dataset that holds tables unless deleteContents, as BigQuery does', async () => {
    await bigquery.dataset('doomed').create({ location: 'US' });
    await bigquery.dataset('doomed').createTable('x', { schema: { fields: [{ name: 'id', type: 'STRING' }] } });
    await expect(bigquery.dataset('doomed').delete()).rejects.toThrow('Dataset aivis-test:doomed is still in use');
    await bigquery.dataset('doomed').delete({ force: true });
    expect((await bigquery.dataset('doomed').exists())[0]).toBe(false);
  });

  it('lists jobs newest first from minCreationTime, with their configuration only in the full projection', async () => {
    const since = Date.now();
    await raw("SELECT 'first' AS x");
    await raw("SELECT 'second' AS x");
    const [full] = await bigquery.getJobs({ minCreationTime: String(since), projection: 'full' });
    const [minimal] = await bigquery.getJobs({ minCreationTime: String(since) });
    // (A job of an earlier test may share the millisecond `since` names.)
    const queries = full.map((job) => job.metadata.configuration?.query?.query);
    expect(queries.filter((q) => /^SELECT '(first|second)'/.test(q ?? ''))).toEqual([
      "SELECT 'second' AS x",
      "SELECT 'first' AS x",
    ]);
    expect(minimal.every((job) => job.metadata.configuration === undefined)).toBe(true);
    expect(minimal.map((job) => job.id)).toEqual(full.map((job) => job.id));
  });

  it('formats timestamps and JSON as BigQuery does, and refuses a format element it does not know', async () => {
    const { rows } = await raw(
      "SELECT FORMAT_TIMESTAMP('%FT%H:%M:%E6SZ', TIMESTAMP '2026-01-02 03:04:05.123456+00'), TO_JSON_STRING(JSON '{\"a\":[1,2]}')",
    );
    expect(rows).toEqual([['2026-01-02T03:04:05.123456Z', '{"a":[1,2]}']]);
    await expect(raw("SELECT FORMAT_TIMESTAMP('%Q', TIMESTAMP '2026-01-02 03:04:05+00')")).rejects.toThrow(
      'The stand-in does not know FORMAT_TIMESTAMP element %Q',
    );
  });

  it('fails an OFFSET or ORDINAL out of range as BigQuery does; SAFE_OFFSET and SAFE_ORDINAL give NULL', async () => {
    const { rows } = await raw(
      "SELECT split('a,b', ',')[OFFSET(1)], split('a,b', ',')[ORDINAL(1)], split('', ',')[OFFSET(0)], split('a', ',')[SAFE_OFFSET(3)], split('a', ',')[SAFE_ORDINAL(2)]",
    );
    expect(rows).toEqual([['b', 'a', '', null, null]]);
    await expect(raw("SELECT split('a,b', ',')[OFFSET(2)]")).rejects.toThrow(
      'Array index 2 is out of bounds (overflow)',
    );
    await expect(raw("SELECT split('a,b', ',')[ORDINAL(3)]")).rejects.toThrow(
      'Array index 3 is out of bounds (overflow)',
    );
  });
});

describe('BigQuery stand-in: descriptions and views', () => {
  it('keeps table and field descriptions through tables.patch, a metadata change with no job', async () => {
    await bigquery.dataset('ds').createTable('described', {
      schema: { fields: [{ name: 'id', type: 'STRING', mode: 'REQUIRED', description: 'The id.' }] },
      description: 'A table.',
    });
    const table = bigquery.dataset('ds').table('described');
    const jobs = standIn.jobs.length;
    await table.setMetadata({
      description: 'Still a table.',
      schema: { fields: [{ name: 'id', type: 'STRING', mode: 'REQUIRED', description: 'Still the id.' }] },
    });
    const [metadata] = await table.getMetadata();
    expect(metadata.description).toBe('Still a table.');
    expect(metadata.schema.fields).toEqual([
      { name: 'id', type: 'STRING', mode: 'REQUIRED', description: 'Still the id.' },
    ]);
    expect(standIn.jobs.length).toBe(jobs);
  });

  it('refuses descriptions longer than BigQuery allows (fields 1,024 characters, tables 16,384)', async () => {
    const table = bigquery.dataset('ds').table('described');
    await expect(
      table.setMetadata({
        schema: { fields: [{ name: 'id', type: 'STRING', mode: 'REQUIRED', description: 'x'.repeat(1025) }] },
      }),
    ).rejects.toThrow('Field id: description exceeds the maximum length of 1024 characters');
    await expect(table.setMetadata({ description: 'x'.repeat(16_385) })).rejects.toThrow(
      'Table description exceeds the maximum length of 16384 characters',
    );
  });

  it('creates a view whose schema comes from its query, and refuses one over a missing table', async () => {
    await bigquery.dataset('ds').createTable('v', {
      view: { query: 'SELECT id, COALESCE(n, 0) AS n FROM `aivis-test.ds.t`', useLegacySql: false },
      description: 'A view.',
    });
    const [metadata] = await bigquery.dataset('ds').table('v').getMetadata();
    expect(metadata.type).toBe('VIEW');
    expect(metadata.schema.fields).toEqual([
      { name: 'id', type: 'STRING' },
      { name: 'n', type: 'INT64' },
    ]);
    await expect(
      bigquery
        .dataset('ds')
        .createTable('w', { view: { query: 'SELECT 1 AS x FROM `aivis-test.ds.nowhere`', useLegacySql: false } }),
    ).rejects.toThrow('Not found: Table aivis-test:ds.nowhere');
  });
});

describe('BigQuery stand-in: DML statements that run at once', () => {
  const lockLike = '`aivis-test.ds.lock_like`';
  const isStatementOn = (verb: string) => (job: { configuration: { query?: { query: string } } }) =>
    job.configuration.query?.query.startsWith(`${verb} ${lockLike}`) === true;
  /** Takes row `k` unless another row is taken: the run lock's pattern. */
  const take = (k: string) =>
    `UPDATE ${lockLike} SET holder = '${k}' WHERE k = '${k}' AND NOT EXISTS (SELECT 1 FROM ${lockLike} WHERE holder <> '')`;

  beforeEach(async () => {
    await raw(
      `CREATE TABLE IF NOT EXISTS ${lockLike} (k STRING NOT NULL, holder STRING NOT NULL) AS SELECT 'seed' AS k, 'seed' AS holder`,
    );
    await raw(`DELETE FROM ${lockLike} WHERE TRUE`);
    await raw(`INSERT INTO ${lockLike} (k, holder) VALUES ('a', ''), ('b', '')`);
  });

  it('two INSERT ... WHERE NOT EXISTS started together both insert: INSERTs never conflict', async () => {
    const insert = `INSERT INTO ${lockLike} (k, holder) SELECT 'x', '' FROM (SELECT 1) WHERE NOT EXISTS (SELECT 1 FROM ${lockLike} WHERE k = 'x')`;
    const held = standIn.hold(isStatementOn('INSERT INTO'));
    const first = raw(insert);
    await held.reached;
    expect((await raw(insert)).response.numDmlAffectedRows).toBe('1');
    held.release();
    expect((await first).response.numDmlAffectedRows).toBe('1');
    expect((await raw(`SELECT COUNT(*) FROM ${lockLike} WHERE k = 'x'`)).rows).toEqual([['2']]);
  });

  it('of two UPDATEs that ran at once, the later to commit is rerun on a fresh snapshot and sees the first', async () => {
    const holdA = standIn.hold(isStatementOn('UPDATE'));
    const a = raw(take('a'));
    await holdA.reached;
    const holdB = standIn.hold(isStatementOn('UPDATE'));
    const b = raw(take('b'));
    // Both ran on snapshots where nothing was taken, and both took their row.
    await holdB.reached;
    holdA.release();
    expect((await a).response.numDmlAffectedRows).toBe('1');
    holdB.release();
    // b lost the conflict; its rerun sees a's row taken and takes nothing.
    expect((await b).response.numDmlAffectedRows).toBe('0');
    expect((await raw(`SELECT k, holder FROM ${lockLike} ORDER BY k`)).rows).toEqual([
      ['a', 'a'],
      ['b', ''],
    ]);
  });

  it("a statement that lost its conflict more often than BigQuery reruns it fails with BigQuery's error", async () => {
    const strict = await startBigqueryStandIn({ dmlReruns: 0 });
    try {
      const engine = strict.engine;
      await engine.createDataset('ds', 'US');
      await engine.query(
        `CREATE TABLE ${lockLike} (k STRING NOT NULL, holder STRING NOT NULL) AS SELECT 'a' AS k, '' AS holder UNION ALL SELECT 'b', ''`,
      );
      let reachedA!: () => void;
      let releaseA!: () => void;
      const atA = new Promise<void>((resolve) => (reachedA = resolve));
      const a = engine.query(take('a'), [], {
        beforeCommit: () => (reachedA(), new Promise<void>((resolve) => (releaseA = resolve))),
      });
      await atA;
      let reachedB!: () => void;
      let releaseB!: () => void;
      const atB = new Promise<void>((resolve) => (reachedB = resolve));
      const b = engine.query(take('b'), [], {
        beforeCommit: () => (reachedB(), new Promise<void>((resolve) => (releaseB = resolve))),
      });
      await atB;
      releaseA();
      await expect(a).resolves.toMatchObject({ affectedRows: 1 });
      releaseB();
      await expect(b).rejects.toMatchObject({
        httpStatus: 400,
        reason: 'invalidQuery',
        message: 'Could not serialize access to table aivis-test:ds.lock_like due to concurrent update',
      });
    } finally {
      await strict.close();
    }
  });

  it('runs two mutating statements per table at once, queues 20 more, and refuses the next', async () => {
    const update = (k: string) => standIn.engine.query(`UPDATE ${lockLike} SET holder = '' WHERE k = '${k}'`);
    const outcomes = Array.from({ length: 23 }, (_, i) =>
      update(`r${i}`).then(
        () => 'done',
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(outcomes)).toEqual([
      ...Array.from({ length: 22 }, () => 'done'),
      'Resources exceeded during query execution: Too many DML statements outstanding against table aivis-test:ds.lock_like, limit is 20.',
    ]);
  });
});

describe('BigQuery stand-in: bytes processed, as on-demand BigQuery bills them', () => {
  const MB = 1024 * 1024;
  const big = '`aivis-test.billing.big`';
  const ts = (day: string) => ({
    name: day,
    parameterType: { type: 'TIMESTAMP' },
    parameterValue: { value: `2026-01-0${day.slice(-1)}T00:00:00Z` },
  });
  const bytes = async (sql: string, parameters = [ts('d1'), ts('d2'), ts('d3')]) =>
    (await standIn.engine.query(sql, parameters)).bytesProcessed;

  beforeAll(async () => {
    await standIn.engine.createDataset('billing', 'US');
    await standIn.engine.createTable('billing', {
      tableReference: { projectId: 'aivis-test', datasetId: 'billing', tableId: 'big' },
      schema: {
        fields: [
          { name: 'id', type: 'STRING' },
          { name: 's', type: 'STRING' },
          { name: 'ts', type: 'TIMESTAMP' },
        ],
      },
      timePartitioning: { type: 'DAY', field: 'ts' },
    });
    // Three day partitions and the NULL one, each 5 rows of a 3,000,000-byte string:
    // 15,000,010 bytes of `s` per partition, id 'r' is 3 bytes, ts 8 bytes when not NULL.
    const days = ['2026-01-01', '2026-01-02', '2026-01-03']
      .map((d) => `SELECT TIMESTAMP '${d} 10:00:00+00' AS d UNION ALL `)
      .join('');
    const five = 'SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5';
    await standIn.engine.query(
      `INSERT INTO ${big} (id, s, ts) SELECT 'r', repeat('x', 3000000), d FROM (${days}SELECT NULL) AS days CROSS JOIN (${five}) AS ns`,
    );
  });

  it('counts the referenced columns of every partition, and at least 10 MB per table', async () => {
    expect(await bytes(`SELECT COUNT(*) FROM ${big}`)).toBe(10 * MB);
    expect(await bytes(`SELECT s FROM ${big}`)).toBe(4 * 15_000_010);
    expect(await bytes(`SELECT id, ts FROM ${big}`)).toBe(10 * MB);
  });

  it('prunes partitions by constant filters on the partitioning column, not by joins', async () => {
    // A filter on ts reads ts too: 5 x 8 bytes in a dated partition, none in the NULL one.
    const dated = 15_000_010 + 40;
    const undated = 15_000_010;
    expect(await bytes(`SELECT s FROM ${big} AS T WHERE T.ts >= @d1 AND T.ts < @d3`)).toBe(2 * dated);
    expect(await bytes(`SELECT s FROM ${big} WHERE ts IS NULL`)).toBe(undated);
    expect(await bytes(`SELECT s FROM ${big} AS T WHERE (T.ts < @d2 OR T.ts >= @d3 OR T.ts IS NULL)`)).toBe(
      2 * dated + undated,
    );
    expect(await bytes(`SELECT s FROM ${big} AS T WHERE NOT (T.ts >= @d2 AND T.ts < @d3)`)).toBe(2 * dated);
    // The filter names the partitioning column but needs rows of a table: every partition (and id).
    expect(await bytes(`SELECT T.s FROM ${big} AS T WHERE T.ts IN (SELECT ts FROM ${big} WHERE id = 'none')`)).toBe(
      3 * dated + undated + 20 * 3,
    );
  });

  it('bills an INSERT for what its query reads, not for the table it writes', async () => {
    await standIn.engine.createTable('billing', {
      tableReference: { projectId: 'aivis-test', datasetId: 'billing', tableId: 'copy' },
      schema: {
        fields: [
          { name: 'id', type: 'STRING' },
          { name: 's', type: 'STRING' },
          { name: 'ts', type: 'TIMESTAMP' },
        ],
      },
    });
    expect(
      await bytes("INSERT INTO `aivis-test.billing.copy` (id, s, ts) SELECT 'x', repeat('y', 20000000), NULL"),
    ).toBe(0);
    expect(
      await bytes(`INSERT INTO \`aivis-test.billing.copy\` (id, s, ts) SELECT id, s, ts FROM ${big} WHERE ts IS NULL`),
    ).toBe(5 * 3 + 15_000_010);
  });

  it('counts every column of the partitions an UPDATE or MERGE reads in its target', async () => {
    const row = 3 + 3_000_002 + 8;
    expect(await bytes(`UPDATE ${big} SET id = 'r' WHERE ts >= @d1 AND ts < @d2`)).toBe(5 * row);
    expect(await bytes(`UPDATE ${big} SET id = 'r' WHERE id = 'none'`)).toBe(15 * row + 5 * (row - 8));
  });
});

describe('BigQuery stand-in: job ids and labels, as BigQuery checks them', () => {
  const query = (options: { jobId?: string; labels?: Record<string, string> }) =>
    bigquery.createQueryJob({ query: 'SELECT 1', ...options });
  const invalid = (message: string) => ({ code: 400, errors: [{ reason: 'invalid', message }] });

  it('takes job ids of letters, digits, _ and - up to 1,024 characters and labels as BigQuery allows them', async () => {
    const labels = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}_-`, i ? `v${i}` : '']));
    await query({ jobId: `Job_-9${'x'.repeat(1018)}`, labels });
    await query({ labels: { ['k'.repeat(63)]: 'v'.repeat(63) } });
  });

  it('refuses a job id with other characters or over 1,024 characters, on jobs.insert and on an upload', async () => {
    const words = (id: string) =>
      `Invalid job ID "${id}". Job IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`;
    await expect(query({ jobId: 'aivis.run:1' })).rejects.toMatchObject(invalid(words('aivis.run:1')));
    await expect(query({ jobId: 'x'.repeat(1025) })).rejects.toMatchObject(invalid(words('x'.repeat(1025))));
    const { Readable } = await import('node:stream');
    const { pipeline } = await import('node:stream/promises');
    const upload = bigquery
      .dataset('ds')
      .table('s')
      .createWriteStream({ sourceFormat: 'NEWLINE_DELIMITED_JSON', jobId: 'load job' } as object);
    await expect(pipeline(Readable.from(['{"id":"j"}\n']), upload)).rejects.toMatchObject({ code: 400 });
    expect(standIn.jobs.some((job) => /[^\w-]/.test(job.jobReference.jobId))).toBe(false);
  });

  it('refuses label keys and values BigQuery refuses, and more than 64 labels', async () => {
    const key = (k: string) => invalid(`Label key "${k}" has invalid characters.`);
    const value = (v: string) => invalid(`Label value "${v}" has invalid characters.`);
    await expect(query({ labels: { Run: 'a' } })).rejects.toMatchObject(key('Run'));
    await expect(query({ labels: { '1run': 'a' } })).rejects.toMatchObject(key('1run'));
    await expect(query({ labels: { _run: 'a' } })).rejects.toMatchObject(key('_run'));
    await expect(query({ labels: { '': 'a' } })).rejects.toMatchObject(key(''));
    await expect(query({ labels: { ['k'.repeat(64)]: 'a' } })).rejects.toMatchObject(key('k'.repeat(64)));
    await expect(query({ labels: { run: 'A' } })).rejects.toMatchObject(value('A'));
    await expect(query({ labels: { run: 'a.b' } })).rejects.toMatchObject(value('a.b'));
    await expect(query({ labels: { run: 'v'.repeat(64) } })).rejects.toMatchObject(value('v'.repeat(64)));
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']));
    await expect(query({ labels: many })).rejects.toMatchObject(
      invalid('Too many labels: 65 given, at most 64 allowed.'),
    );
  });
});

describe('BigQuery stand-in: faults, as BigQuery shows them', () => {
  afterEach(() => {
    standIn.faults = {};
  });

  it('refuses a job run in another location than its dataset, in BigQuery words', async () => {
    const elsewhere = new BigQuery({
      projectId: standIn.projectId,
      apiEndpoint: standIn.url,
      authClient: fakeAuthClient(),
      location: 'EU',
    });
    await expect(elsewhere.createQueryJob({ query: 'SELECT id FROM `aivis-test.ds.t`' })).rejects.toThrow(
      'Not found: Dataset aivis-test:ds was not found in location EU',
    );
  });

  it('answers RUNNING for N polls, pages results, and fails the n-th job with backendError', async () => {
    standIn.faults = { runningPolls: 2, pageRows: 1 };
    const [job] = await bigquery.createQueryJob({ query: 'SELECT 1 AS a UNION ALL SELECT 2 ORDER BY a' });
    const page = { skipParsing: true, autoPaginate: false } as object;
    const answers: unknown[] = [];
    for (let next: object | null = page; next; ) {
      const [rows, following, response] = (await job.getQueryResults(next)) as unknown as [
        { f: { v: string }[] }[],
        object | null,
        { jobComplete: boolean },
      ];
      answers.push(response.jobComplete ? rows.map((r) => r.f[0]!.v) : 'running');
      next = following;
    }
    expect(answers).toEqual(['running', 'running', ['1'], ['2']]);
    standIn.faults = { jobFailures: { every: 2, reason: 'backendError' } };
    await raw('SELECT 1');
    await expect(raw('SELECT 1')).rejects.toMatchObject({
      errors: [
        { reason: 'backendError', message: 'Error encountered during execution. Retrying may solve the problem.' },
      ],
    });
    expect(standIn.injected).toEqual({ backendError: 1 });
  });

  it('fails an upload with 503, or resets it before or after the job ran', async () => {
    standIn.faults = { uploadFailures: { every: 1, kind: 'unavailable' } };
    await expect(load('s', '{"id":"u1"}\n')).rejects.toMatchObject({ code: 503 });
    standIn.faults = { uploadFailures: { every: 1, kind: 'lostResponse' } };
    await expect(load('s', '{"id":"u2"}\n')).rejects.toThrow();
    standIn.faults = {};
    // The lost answer's job ran: its row is there; the 503's is not.
    expect((await raw("SELECT id FROM `aivis-test.ds.s` WHERE id IN ('u1', 'u2')")).rows).toEqual([['u2']]);
  });
});
