/**
 * `aivis query` as a user runs it, the same checks on every destination: a child process
 * (`aivis query --config F ...`, loopback guard loaded), a config whose API key variable is not
 * set, a two-row fixture table, each output format's exact text, and each refusal's exact
 * message and exit 2 with the table unchanged. Each destination's file supplies its engine and
 * the refusals only it can meet.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../support/cli-process.ts';

/** How a destination's test file sets up the fixture and looks at it behind aivis's back. */
export interface QueryTarget {
  /** The fixture table as the engine's SQL names it (`aivis_q.query_fixture`). */
  readonly table: string;
  /** A result column's name as the engine gives it (Snowflake upper-cases unquoted names). */
  readonly column: (name: string) => string;
  /**
   * Creates the fixture table `query_fixture` (id, big, name, payload, ok) with its two rows:
   * (1, 2^53 + 1, 'comma, "quote"', {"k":[1,2]}, true) and (2, 2^53 - 1, NULL, NULL, false),
   * and writes a config for it; returns the config file and the environment its secrets need
   * (never the API key).
   */
  setup(): Promise<{ config: string; env: NodeJS.ProcessEnv }>;
  teardown(): Promise<void>;
  /** Rows of the fixture table, counted without aivis. */
  rowCount(): Promise<number>;
  /** Whether a table of this name exists in the fixture's schema. */
  tableExists(name: string): Promise<boolean>;
  /** A statement selecting `tags` (the texts 'a' and 'b c') and `ns` (1 and 2) as the engine's arrays. */
  readonly arrays: string;
  /**
   * Statements only this engine's own guard can refuse: with the kind the refusal names, or the
   * whole message, or neither (several statements).
   */
  readonly engineRefusals: readonly { readonly sql: string; readonly kind?: string; readonly message?: RegExp }[];
}

const SEVERAL =
  'aivis query runs one statement, and this text holds more than one: refused before any ran (run them one at a time)';
const notReadOnly = (kind: string) =>
  `aivis query runs read-only statements only, and this is ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} statement: ` +
  `refused before it ran (read with SELECT; change data with the warehouse's own tools)`;

/**
 * Writes a config for `destination` (its YAML lines, indented) whose API key comes from
 * `${AIVIS_API_KEY}`, a variable the tests never set: query must not need it.
 */
export async function writeQueryConfig(file: string, destination: readonly string[]): Promise<string> {
  const source = ['source:', '  base_url: http://127.0.0.1:9/public/v2', '  api_key: ${AIVIS_API_KEY}'];
  await writeFile(file, [...source, 'destination:', ...destination, ''].join('\n'));
  return file;
}

/** The last line on stderr, a JSON log line off a terminal: its message. */
export function lastMessage(result: CliResult): string {
  const line = result.stderr.trim().split('\n').at(-1) ?? '';
  return (JSON.parse(line) as { msg: string }).msg;
}

export function describeQuery(engine: string, target: QueryTarget): void {
  // Each test starts whole CLI processes; on a machine shared with other suites one takes seconds.
  describe(`aivis query on ${engine}`, { timeout: 180_000 }, () => {
    let config: string;
    let env: NodeJS.ProcessEnv;
    const aivis = (...args: string[]) => runCli(['query', '--config', config, ...args], env).done;
    const select = () => `SELECT id, big, name, payload, ok FROM ${target.table} ORDER BY id`;

    beforeAll(async () => {
      ({ config, env } = await target.setup());
      // The config names ${AIVIS_API_KEY}; query reads the destination only, so needs no key.
      expect(env.AIVIS_API_KEY).toBeUndefined();
    });
    afterAll(() => target.teardown());

    const c = (name: string) => target.column(name);

    it('prints CSV off a terminal by default, and with --format csv', async () => {
      const expected = [
        ['id', 'big', 'name', 'payload', 'ok'].map(c).join(','),
        '1,9007199254740993,"comma, ""quote""","{""k"":[1,2]}",true',
        '2,9007199254740991,,,false',
        '',
      ].join('\n');
      for (const format of [[], ['--format', 'csv']]) {
        const result = await aivis(...format, select());
        expect(result.stderr).toBe('');
        expect(result.stdout).toBe(expected);
        expect(result.code).toBe(0);
      }
    });

    it('prints JSON: an array of objects keyed by column, integers beyond 2^53 as strings', async () => {
      const result = await aivis('--format', 'json', select());
      expect(result.stdout).toBe(
        [
          '[',
          `{"${c('id')}":1,"${c('big')}":"9007199254740993","${c('name')}":"comma, \\"quote\\"","${c('payload')}":{"k":[1,2]},"${c('ok')}":true},`,
          `{"${c('id')}":2,"${c('big')}":9007199254740991,"${c('name')}":null,"${c('payload')}":null,"${c('ok')}":false}`,
          ']',
          '',
        ].join('\n'),
      );
      const parsed = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(parsed.map((row) => row[c('big')])).toEqual(['9007199254740993', 9007199254740991]);
      expect(result.code).toBe(0);
    });

    it('prints an aligned table with --format table, numbers to the right and NULL spelt out', async () => {
      const result = await aivis('--format', 'table', select());
      const [id, big, name, payload, ok] = ['id', 'big', 'name', 'payload', 'ok'].map(c) as [
        string,
        string,
        string,
        string,
        string,
      ];
      expect(result.stdout).toBe(
        [
          `${id} | ${big.padEnd(16)} | ${name.padEnd(14)} | ${payload.padEnd(11)} | ${ok}`,
          '---+------------------+----------------+-------------+------',
          ' 1 | 9007199254740993 | comma, "quote" | {"k":[1,2]} | true',
          ' 2 | 9007199254740991 | NULL           | NULL        | false',
          '(2 rows)',
          '',
        ].join('\n'),
      );
      expect(result.code).toBe(0);
    });

    it('prints the header alone for an empty result, and [] as JSON', async () => {
      const empty = `SELECT id, name FROM ${target.table} WHERE id > 100`;
      expect((await aivis(empty)).stdout).toBe(`${c('id')},${c('name')}\n`);
      expect((await aivis('--format', 'json', empty)).stdout).toBe('[]\n');
    });

    it('prints arrays as JSON arrays, and as JSON text in CSV', async () => {
      const json = await aivis('--format', 'json', target.arrays);
      expect(json.stdout).toBe(`[\n{"${c('tags')}":["a","b c"],"${c('ns')}":[1,2]}\n]\n`);
      const csv = await aivis(target.arrays);
      expect(csv.stdout).toBe(`${c('tags')},${c('ns')}\n"[""a"",""b c""]","[1,2]"\n`);
    });

    it('names what the engine cannot read in the statement, with exit 2', async () => {
      const result = await aivis(`SELECT nope FROM ${target.table.replace('query_fixture', 'missing_table')}`);
      expect(lastMessage(result)).toMatch(new RegExp(`^${engine} cannot run the statement: .*missing_table`, 'is'));
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    });

    it('refuses anything but one read-only statement with exit 2, before it runs', async () => {
      const refusals: { sql: string; message: string | ReturnType<typeof expect.stringMatching> }[] = [
        { sql: `SELECT 1; DELETE FROM ${target.table}`, message: SEVERAL },
        { sql: `INSERT INTO ${target.table} (id) VALUES (3)`, message: notReadOnly('INSERT') },
        { sql: `  -- a comment first\n  DELETE FROM ${target.table}`, message: notReadOnly('DELETE') },
        { sql: `UPDATE ${target.table} SET name = 'x'`, message: notReadOnly('UPDATE') },
        { sql: `CREATE TABLE ${target.table}_made (a INT)`, message: notReadOnly('CREATE') },
        { sql: `DROP TABLE ${target.table}`, message: notReadOnly('DROP') },
        { sql: `COPY ${target.table} TO '/tmp/aivis-query-copy.csv'`, message: notReadOnly('COPY') },
        {
          sql: '   ',
          message:
            'aivis query: the statement is empty: give one read-only statement, such as "SELECT * FROM websites"',
        },
        ...target.engineRefusals.map(({ sql, kind, message }) => ({
          sql,
          message: message ? expect.stringMatching(message) : kind ? notReadOnly(kind) : SEVERAL,
        })),
      ];
      // A few processes at a time: each is a whole CLI start on a machine shared with other suites.
      const results = [];
      for (let i = 0; i < refusals.length; i += 3)
        results.push(...(await Promise.all(refusals.slice(i, i + 3).map(({ sql }) => aivis(sql)))));
      expect(results.map((r) => ({ code: r.code, message: lastMessage(r), stdout: r.stdout }))).toEqual(
        refusals.map(({ message }) => ({ code: 2, message, stdout: '' })),
      );
      expect(await target.rowCount()).toBe(2);
      expect(await target.tableExists('query_fixture_made')).toBe(false);
    });
  });
}
