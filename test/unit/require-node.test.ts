/** The Node.js version guard of bin/require-node.cjs: its comparison and its reading of `engines`. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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
