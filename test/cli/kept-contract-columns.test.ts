/**
 * `aivis streams` and `aivis dbt-sources` show the columns the newest served contract kept in
 * `_aivis_contracts` adds (docs/served-contract.md#where-evolved-columns-show): after a DuckDB sync
 * under a contract that declares the citations' fields, both list them with their
 * descriptions, and the views over them carry the same words in the warehouse as `streams`
 * prints (issue 39 item 4: one description source for tables and views); an unreachable
 * destination shows the bundled columns with one warning, exit 0; one that accepts the
 * connection and never answers does too, at the deadline, and the process ends then although
 * the Snowflake SDK would go on trying its login for a minute.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { citationsTable } from '../../src/tables/index.ts';
import { runCli } from '../support/cli-process.ts';
import { closedPort } from '../support/closed-port.ts';
import { jsonLines } from '../support/json-lines.ts';

type Json = Record<string, any>;

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-kept-contract-'));
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let evolved: string;
let bundled: string;
let unreachable: string;
let port: number;
/** A loopback port that accepts connections and never says a word. */
let silent: net.Server;
const sockets = new Set<net.Socket>();

function writeConfig(name: string, destination: readonly string[]): string {
  const file = path.join(dir, `${name}.yaml`);
  const source = [
    'source:',
    `  base_url: ${sandbox.baseUrl}`,
    '  api_key: ${AIVIS_API_KEY}',
    '  requests_per_minute: 100',
  ];
  writeFileSync(file, [...source, 'destination:', ...destination, ''].join('\n'));
  return file;
}

const duckdb = (name: string) => ['  type: duckdb', `  path: ./${name}.duckdb`, '  schema: aivis'];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, websites: 2, requestsPerMinute: 0, variants: ['contract_citation_fields'] });
  port = await closedPort();
  env = { AIVIS_API_KEY: sandbox.apiKey, PG_URL: `postgres://loader:pg-secret@127.0.0.1:${port}/warehouse` };
  evolved = writeConfig('evolved', duckdb('evolved'));
  bundled = writeConfig('bundled', duckdb('bundled'));
  unreachable = writeConfig('unreachable', ['  type: postgres', '  url: ${PG_URL}', '  schema: analytics']);
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const sync = await runCli(['sync', '--config', evolved], env).done;
  expect(sync.code, sync.stderr).toBe(0);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const aivis = (verb: string, config: string) => runCli([verb, '--config', config], env).done;

/** What the served contract of `contract_citation_fields` says of each citation field it declares. */
const DECLARED: readonly (readonly [name: string, said: string, duckdbType: string])[] = [
  ['url', 'The cited page.', 'VARCHAR'],
  ['domain', 'The host of the cited page.', 'VARCHAR'],
  ['title', "The cited page's title; null when unknown.", 'VARCHAR'],
  ['rank', 'Where the citation stands among the answer’s sources, 1 first.', 'BIGINT'],
];
const described = (name: string, said: string) =>
  `${said} (Added at run time: \`${name}\` as the served contract declares it; NULL where a record lacks it.)`;

/** The `-- stream citations` block of `aivis streams`' output. */
const citationsBlock = (stdout: string) =>
  stdout.split('\n\n').find((block) => block.startsWith('-- stream citations'));

describe('streams and dbt-sources show the kept contract’s columns', () => {
  it('dbt-sources lists the citations’ declared fields with their descriptions', async () => {
    const { code, stdout, stderr } = await aivis('dbt-sources', evolved);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const citations = (parse(stdout).sources[0].tables as Json[]).find((t) => t.name === 'citations')!;
    expect(citations.columns.map((c: Json) => [c.name, c.description])).toEqual([
      ...citationsTable.columns.map((c) => [c.name, c.description]),
      ...DECLARED.map(([name, said]) => [name, described(name, said)]),
    ]);
  });

  it('streams prints the citations table with the declared fields, typed and commented', async () => {
    const { code, stdout, stderr } = await aivis('streams', evolved);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // Nothing kept in `bundled` (no sync): the bundled contract's columns, silently.
    const before = await aivis('streams', bundled);
    expect({ code: before.code, stderr: before.stderr }).toEqual({ code: 0, stderr: '' });
    // Looking for a kept contract does not make the database file a sync would make.
    expect(existsSync(path.join(dir, 'bundled.duckdb'))).toBe(false);
    const table = '"evolved"."aivis"."citations"';
    const workspaceComment = citationsBlock(before.stdout)!
      .replaceAll('"bundled"', '"evolved"')
      .split('\n')
      .find((line) => line.startsWith(`COMMENT ON COLUMN ${table}."_workspace"`))!;
    const expected = citationsBlock(before.stdout)!
      .replaceAll('"bundled"', '"evolved"')
      .replace(
        '  "_workspace" VARCHAR,\n',
        `  "_workspace" VARCHAR,\n${DECLARED.map(([name, , type]) => `  "${name}" ${type},\n`).join('')}`,
      )
      .replace(
        workspaceComment,
        [
          workspaceComment,
          ...DECLARED.map(
            ([name, said]) =>
              `COMMENT ON COLUMN ${table}."${name}" IS '${described(name, said).replaceAll("'", "''")}';`,
          ),
        ].join('\n'),
      );
    expect(citationsBlock(stdout)).toBe(expected);
    expect(expected).not.toBe(citationsBlock(before.stdout)!.replaceAll('"bundled"', '"evolved"'));
  });

  it('streams prints for each view column the comment sync gave it: the contract’s words, as on the table', async () => {
    const { code, stdout } = await aivis('streams', evolved);
    expect(code).toBe(0);
    const printed = [
      ...stdout.matchAll(/^COMMENT ON COLUMN "evolved"\."aivis"\."citations_current"\."(\w+)" IS '(.*)';$/gm),
    ].map((m) => [m[1], m[2]!.replaceAll("''", "'")]);
    const instance = await DuckDBInstance.create(path.join(dir, 'evolved.duckdb'), { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const commentsOf = async (table: string) =>
      (
        await connection.runAndReadAll(
          'SELECT column_name, comment FROM duckdb_columns() WHERE table_name = $1 ORDER BY column_index',
          [table],
        )
      ).getRowsJS();
    const stored = await commentsOf('citations_current');
    const onTable = await commentsOf('citations');
    connection.closeSync();
    instance.closeSync();
    expect(stored.map(([name]) => name)).toContain('rank');
    expect(printed).toEqual(stored);
    // Agreeing is not enough (generic words printed and stored alike would agree and still
    // mislead): the view's declared fields carry the contract's words, as the table's do.
    const declared = (comments: unknown[][]) => comments.filter(([name]) => DECLARED.some(([n]) => n === name));
    const contractWords = DECLARED.map(([name, said]) => [name, described(name, said)]);
    expect({ view: declared(stored), table: declared(onTable) }).toEqual({ view: contractWords, table: contractWords });
  });

  it.each(['streams', 'dbt-sources'])(
    '%s with an unreachable destination: the bundled columns and one warning naming why, exit 0',
    async (verb) => {
      const { code, stdout, stderr } = await aivis(verb, unreachable);
      expect(code).toBe(0);
      expect(jsonLines(stderr)).toEqual([
        {
          ts: expect.any(String),
          level: 'warn',
          msg: `showing the bundled contract's columns: cannot read _aivis_contracts: cannot reach Postgres at 127.0.0.1:${port}: connection refused`,
          destination: 'postgres',
        },
      ]);
      const columns =
        verb === 'streams'
          ? [...citationsBlock(stdout)!.matchAll(/^ {2}"(\w+)" /gm)].map((m) => m[1])
          : (parse(stdout).sources[0].tables as Json[])
              .find((t) => t.name === 'citations')!
              .columns.map((c: Json) => c.name);
      expect(columns).toEqual(citationsTable.columns.map((c) => c.name));
    },
  );

  it('dbt-sources with a destination that never answers: the bundled columns and one warning after 10 s, and the process ends', {
    timeout: 30_000,
  }, async () => {
    const { port: listening } = silent.address() as net.AddressInfo;
    const config = writeConfig('silent', [
      '  type: snowflake',
      '  account: aivis-test',
      '  username: AIVIS_LOADER',
      '  password: ${SF_PASSWORD}',
      '  warehouse: LOADING',
      '  database: ANALYTICS',
      '  schema: AIVIS',
      `  access_url: http://127.0.0.1:${listening}`,
    ]);
    const { code, stdout, stderr } = await runCli(['dbt-sources', '--config', config], {
      ...env,
      SF_PASSWORD: 'loader-secret-pw',
    }).done;
    expect(code).toBe(0);
    expect(jsonLines(stderr)).toEqual([
      {
        ts: expect.any(String),
        level: 'warn',
        msg: "showing the bundled contract's columns: the destination did not answer within 10 s",
        destination: 'snowflake',
      },
    ]);
    const citations = (parse(stdout).sources[0].tables as Json[]).find((t) => t.name === 'citations')!;
    expect(citations.columns.map((c: Json) => c.name)).toEqual(citationsTable.columns.map((c) => c.name));
  });
});
