/**
 * The product's own path to Snowflake, as a user runs it: `aivis check | streams --config
 * FILE` in a child process, secrets from the environment, key-pair auth, the destination
 * factory and the lazily loaded driver, against the stand-in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { jsonLines } from '../support/json-lines.ts';
import { runCli } from '../support/cli-process.ts';
import {
  configYaml,
  keyPairFiles,
  LOADER,
  READER,
  startStandIn,
  type StandInSetup,
} from '../stand-ins/snowflake/stand-in-fixture.ts';

const PASSPHRASE = 'cli key passphrase';
const keys = keyPairFiles(PASSPHRASE);
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-sf-cli-'));
let setup: StandInSetup;
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  setup = await startStandIn([{ name: 'KEY_LOADER', publicKeyPem: keys.publicKeyPem }]);
  sandbox = await startSandbox({ requestsPerMinute: 0, websites: 2, seed: 5 });
  env = {
    AIVIS_E2E_API_KEY: sandbox.apiKey,
    AIVIS_E2E_SNOWFLAKE_PASSPHRASE: PASSPHRASE,
    AIVIS_E2E_SNOWFLAKE_PASSWORD: READER.password,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await setup?.standIn.close();
  rmSync(dir, { recursive: true, force: true });
});

function configFile(name: string, overrides: Parameters<StandInSetup['config']>[1]): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, configYaml(sandbox.baseUrl, setup.config(name, overrides)));
  return file;
}

const keyPair = {
  username: 'key_loader',
  password: undefined,
  private_key_file: keys.privateKeyFile,
  private_key_passphrase: PASSPHRASE,
};

describe('aivis CLI with a Snowflake destination', () => {
  it('check passes with key-pair auth and says what it proved', async () => {
    const file = configFile('cli_check', keyPair);
    const result = await runCli(['check', '--config', file], env).done;
    expect(result.stdout).toBe(
      [
        `ok   config ${file}`,
        `ok   API ${sandbox.baseUrl}: key accepted, V2 enabled, read scope granted (websites visible)`,
        `ok   API ${sandbox.baseUrl}: the served contract says what the bundled contract says`,
        'ok   destination snowflake: reachable, can create and write tables',
        '',
      ].join('\n'),
    );
    // The stand-in's config reads as fast as the sandbox lets it, above the API's limit: said once.
    expect(jsonLines(result.stderr).map((line) => line.msg)).toEqual([
      expect.stringMatching(/source\.requests_per_minute 6000 is above the API's limit of 100/),
    ]);
    expect(result.code).toBe(0);
  });

  it('check fails with exit 1 naming the grant a read-only role lacks, never printing the password', async () => {
    const file = configFile('cli_readonly', {
      username: READER.name,
      password: READER.password,
      role: 'AIVIS_READER_ROLE',
    });
    const result = await runCli(['check', '--config', file], env).done;
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'FAIL destination snowflake: role AIVIS_READER_ROLE lacks CREATE SCHEMA on database analytics and schema analytics.cli_readonly does not exist: create it, or GRANT CREATE SCHEMA ON DATABASE analytics TO ROLE AIVIS_READER_ROLE',
    );
    expect(result.stdout + result.stderr).not.toContain(READER.password);
  });

  it('sync and backfill with a read-only role fail with the same GRANT check names, and no stack frame', async () => {
    const file = configFile('cli_readonly_sync', {
      username: READER.name,
      password: READER.password,
      role: 'AIVIS_READER_ROLE',
    });
    for (const verb of [['sync'], ['backfill', '--streams', 'mentions', '--since', '2020-01-01T00:00:00Z']]) {
      const result = await runCli([...verb, '--config', file], env).done;
      expect({ verb, code: result.code }).toEqual({ verb, code: 1 });
      expect(String(jsonLines(result.stderr).at(-1)?.msg)).toMatch(
        /^role AIVIS_READER_ROLE lacks CREATE SCHEMA on database analytics and schema analytics\.cli_readonly_sync does not exist: create it, or GRANT CREATE SCHEMA ON DATABASE analytics TO ROLE AIVIS_READER_ROLE \(Snowflake: /,
      );
      expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stdout + result.stderr).not.toContain(READER.password);
    }
  });

  it('sync with a role that may create tables but not views fails with exit 1 naming GRANT CREATE VIEW, and no stack frame', async () => {
    const file = configFile('cli_no_views', { role: 'AIVIS_TABLES_ONLY_ROLE' });
    const result = await runCli(['sync', '--config', file], { ...env, AIVIS_E2E_SNOWFLAKE_PASSWORD: LOADER.password })
      .done;
    expect(result.code).toBe(1);
    expect(String(jsonLines(result.stderr).at(-1)?.msg)).toMatch(
      /^role AIVIS_TABLES_ONLY_ROLE lacks CREATE VIEW on schema analytics\.cli_no_views: GRANT CREATE VIEW ON SCHEMA analytics\.cli_no_views TO ROLE AIVIS_TABLES_ONLY_ROLE \(Snowflake: /,
    );
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout + result.stderr).not.toContain(LOADER.password);
  });

  describe('check against a Snowflake that does not answer fails within source.timeout_seconds', () => {
    /** A loopback port that accepts connections and never says a word. */
    let silent: net.Server;
    const sockets = new Set<net.Socket>();
    beforeAll(async () => {
      silent = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    const checkAt = async (name: string, accessUrl: string) => {
      const file = path.join(dir, `${name}.yaml`);
      const yaml = configYaml(sandbox.baseUrl, setup.config(name, { ...keyPair, access_url: accessUrl }));
      writeFileSync(
        file,
        yaml.replace('  requests_per_minute: 6000\n', '  requests_per_minute: 6000\n  timeout_seconds: 2\n'),
      );
      return runCli(['check', '--config', file], env).done;
    };

    it('an account that accepts the connection and never answers: the login times out after 2 s, not retried', async () => {
      const { port } = silent.address() as net.AddressInfo;
      const result = await checkAt('cli_silent', `http://127.0.0.1:${port}`);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('FAIL destination snowflake: Snowflake: login as key_loader on account ');
      expect(result.stdout).toContain(' failed: timeout of 2000ms exceeded (code 401001)\n');
    });

    it('a closed port: the refused login is not retried for minutes', async () => {
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as net.AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const result = await checkAt('cli_closed', `http://127.0.0.1:${port}`);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(` failed: connect ECONNREFUSED 127.0.0.1:${port} (code 401001)\n`);
    });
  });

  it('streams prints the Snowflake DDL with unquoted names', async () => {
    const file = configFile('cli_streams', keyPair);
    const result = await runCli(['streams', '--config', file], env).done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('CREATE SCHEMA IF NOT EXISTS analytics.cli_streams');
    // Each column carries its description in the CREATE TABLE, and the table its own after the list.
    const mentions = result.stdout.split('\n').find((line) => line.includes('analytics.cli_streams.mentions ('));
    expect(mentions).toMatch(
      /^CREATE TABLE IF NOT EXISTS analytics\.cli_streams\.mentions \(id VARCHAR NOT NULL COMMENT 'The mention id \(`men_\.\.\.`\)\.', website_id VARCHAR NOT NULL COMMENT '/,
    );
    expect(mentions).toMatch(
      /, mention_spans VARIANT NOT NULL COMMENT '(?:[^'\\]|\\.)*', _synced_at TIMESTAMP_TZ NOT NULL COMMENT '(?:[^'\\]|\\.)*', _run_id VARCHAR NOT NULL COMMENT '(?:[^'\\]|\\.)*', _raw VARIANT NOT NULL COMMENT '(?:[^'\\]|\\.)*', _workspace VARCHAR COMMENT '(?:[^'\\]|\\.)*', PRIMARY KEY \(id\)\) COMMENT = '(?:[^'\\]|\\.)*';?$/,
    );
  });
});
