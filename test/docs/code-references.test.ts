/**
 * Comments and messages outside the docs point to them by path: every `docs/<page>.md` named in
 * the code, examples, Dockerfile and scripts exists, with the heading its `#fragment` names, and
 * a section of README.md quoted by name (`README, "Exit codes"`) is one of its headings.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, ROOT } from './markdown.ts';

/** The files that may point to the docs (test/docs itself holds made-up names as fixtures). */
function sourceFiles(): string[] {
  const found: string[] = ['Dockerfile'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir))) {
      const name = `${dir}/${entry}`;
      if (entry === 'node_modules' || name === 'test/docs') continue;
      if (statSync(path.join(ROOT, name)).isDirectory()) walk(name);
      else if (/\.(ts|cjs|js|py|ya?ml|sh)$|^run$/.test(entry)) found.push(name);
    }
  };
  for (const dir of ['src', 'connectors', 'bin', 'schemas', 'examples', 'test', '.ci']) walk(dir);
  return found;
}

/** `where: reference: problem` for each pointer into the docs that does not resolve. */
function referenceProblems(files: readonly string[], read: (name: string) => string | undefined): string[] {
  const problems: string[] = [];
  const readmeAnchors = anchors(read('README.md') ?? '');
  const readmeHeadings = new Set(
    [...(read('README.md') ?? '').matchAll(/^#{1,6}\s+(.*?)\s*$/gm)].map((m) => m[1]!.toLowerCase()),
  );
  for (const file of files) {
    const lines = (read(file) ?? '').split('\n');
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      for (const [reference, page, fragment] of line.matchAll(/\bdocs\/([\w/.-]+?\.md)(?:#([\w-]+))?/g)) {
        const text = read(`docs/${page}`);
        if (text === undefined) problems.push(`${where}: ${reference}: no file docs/${page}`);
        else if (fragment !== undefined && !anchors(text).has(fragment))
          problems.push(`${where}: ${reference}: docs/${page} has no heading #${fragment}`);
      }
      for (const [reference, section] of line.matchAll(/\bREADME[,:]?\s+"([^"]+)"/g)) {
        const name = section!.toLowerCase();
        if (!readmeHeadings.has(name) && !readmeAnchors.has(name))
          problems.push(`${where}: ${reference}: README.md has no heading "${section}"`);
      }
    });
  }
  return problems;
}

function readRepository(name: string): string | undefined {
  try {
    return readFileSync(path.join(ROOT, name), 'utf8');
  } catch {
    return undefined;
  }
}

describe('pointers to the docs from the code', () => {
  it('every docs/ page, heading and README section named resolves', () => {
    expect(referenceProblems(sourceFiles(), readRepository)).toEqual([]);
  });

  it('fails on a missing page, a missing heading and a README section that is gone', () => {
    const files: Record<string, string> = {
      'README.md': '# R\n\n## Set up\n',
      'docs/ops.md': '# Ops\n\n## Exit codes\n',
      'src/a.ts': [
        '// see docs/ops.md#exit-codes and docs/ops.md, README "Set up"',
        '// see docs/gone.md, docs/ops.md#use-it',
        '// exit codes (README, "Use it")',
      ].join('\n'),
    };
    expect(referenceProblems(['src/a.ts'], (name) => files[name])).toEqual([
      'src/a.ts:2: docs/gone.md: no file docs/gone.md',
      'src/a.ts:2: docs/ops.md#use-it: docs/ops.md has no heading #use-it',
      'src/a.ts:3: README, "Use it": README.md has no heading "Use it"',
    ]);
  });
});
