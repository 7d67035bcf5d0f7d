/**
 * aivis as npm installs it, and on a Node.js that is too old.
 *
 * The package is packed from a copy of this checkout's sources (`npm pack`, whose prepare
 * script compiles dist/ there, leaving the checkout's own dist/ alone) and installed from
 * the tarball into an empty project (`npm install <tarball>`, dependencies from the npm
 * cache or registry). Its `aivis` prints package.json's version; under the system's Node 20
 * (/usr/bin/node, when there is one) it says which Node it needs, and so do `npm run demo`
 * and `npm test` in the checkout, instead of failing inside a dependency.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { version, engines } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** npm from the Node that runs the tests (its bin folder comes first on PATH). */
async function npm(args: readonly string[], cwd: string): Promise<Run> {
  const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
  const result = await run('npm', [...args, '--loglevel=error', '--no-audit', '--no-fund'], { cwd, env });
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result;
}

const OLD_NODE = '/usr/bin/node';
const oldNodeVersion = existsSync(OLD_NODE)
  ? (await run(OLD_NODE, ['-p', 'process.versions.node'], { cwd: ROOT })).stdout.trim()
  : undefined;
const minimum = /^>=\s*(\S+)$/.exec(engines.node)![1]!;
const isOlder = (v: string) => v.localeCompare(minimum, undefined, { numeric: true }) < 0;
const oldNode = oldNodeVersion !== undefined && isOlder(oldNodeVersion) ? oldNodeVersion : undefined;
const skipOld =
  oldNode === undefined
    ? ` (skipped: ${OLD_NODE} is ${oldNodeVersion ? `${oldNodeVersion}, within ${engines.node}` : 'absent'})`
    : '';
const OLD_NPM = '/usr/bin/npm';
const skipOldNpm = skipOld || (existsSync(OLD_NPM) ? '' : ` (skipped: no ${OLD_NPM} beside ${OLD_NODE})`);

describe('installed from the packed tarball', () => {
  let dir: string;
  let bin: string;
  let consumer: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-package-'));
    const pkg = path.join(dir, 'pkg');
    for (const entry of [
      'package.json',
      'README.md',
      'tsconfig.json',
      'tsconfig.build.json',
      'bin',
      'src',
      'connectors',
      'schemas',
    ]) {
      cpSync(path.join(ROOT, entry), path.join(pkg, entry), { recursive: true });
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
    const packed = await npm(['pack', '--pack-destination', dir], pkg);
    const tarball = path.join(dir, packed.stdout.trim().split('\n').at(-1)!);
    consumer = path.join(dir, 'consumer');
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    await npm(['install', '--no-save', '--ignore-scripts', '--prefer-offline', '--omit=optional', tarball], consumer);
    bin = path.join(consumer, 'node_modules', '.bin', 'aivis');
  }, 180_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("aivis --version prints the package's version, from the installing project and from anywhere else", async () => {
    expect(await run(process.execPath, [bin, '--version'], { cwd: consumer })).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: '',
    });
    expect(await run(process.execPath, [bin, '--version'], { cwd: os.tmpdir() })).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: '',
    });
  });

  it.skipIf(!oldNode)(
    `aivis on Node ${oldNode ?? 'older than engines'} says which Node it needs${skipOld}`,
    async () => {
      const result = await run(OLD_NODE, [bin, '--version'], { cwd: consumer });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr)).toEqual({
        ts: expect.any(String),
        level: 'error',
        msg: `aivis needs Node.js ${engines.node} (this is ${oldNode}): install Node.js 24 LTS (https://nodejs.org/)`,
        exit_code: 1,
      });
    },
  );
});

describe.skipIf(skipOldNpm !== '')(
  `npm scripts of the checkout on Node ${oldNode ?? 'older than engines'}${skipOldNpm}`,
  () => {
    /** npm as the system's old Node runs it: only /usr/bin and /bin on PATH. */
    const oldNpm = (args: readonly string[]) =>
      run(OLD_NPM, args, { cwd: ROOT, env: { ...process.env, PATH: '/usr/bin:/bin' } });
    const message = `aivis needs Node.js ${engines.node} (this is ${oldNode}): run 'source .ci/node.sh' or install Node.js 24 LTS`;

    it.each([
      ['npm run demo', ['run', 'demo']],
      // `--help` keeps a run without the guard short: vitest would print its help and stop.
      ['npm test', ['test', '--', '--help']],
    ])('%s says which Node it needs and how to get it', async (_what, args) => {
      const result = await oldNpm(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
    });
  },
);
