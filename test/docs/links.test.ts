/**
 * Every relative link in README.md, CHANGELOG.md and docs/ resolves: the file exists, and a
 * `#fragment` into a Markdown file names one of its headings (as GitHub spells the anchor).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, type DocFile, docFiles, links, ROOT } from './markdown.ts';

/** Why each relative link does not resolve (empty when all do). `read` gives a Markdown file's text. */
function linkProblems(files: readonly DocFile[], read: (name: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const file of files) {
    for (const { target, where } of links(file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not ours to check offline
      const [pathPart = '', fragment] = target.split('#', 2) as [string, string | undefined];
      const name =
        pathPart === '' ? file.name : path.posix.normalize(path.posix.join(path.posix.dirname(file.name), pathPart));
      const text = read(name.replace(/\/$/, ''));
      if (text === undefined) {
        problems.push(`${where}: ${target}: no file ${name}`);
        continue;
      }
      if (fragment !== undefined && !anchors(text).has(fragment)) {
        problems.push(`${where}: ${target}: ${name} has no heading #${fragment}`);
      }
    }
  }
  return problems;
}

/** A file or folder of the repository: a Markdown file's text, '' for anything else, undefined when absent. */
function readRepository(name: string): string | undefined {
  const full = path.join(ROOT, name);
  if (!existsSync(full)) return undefined;
  return statSync(full).isFile() && name.endsWith('.md') ? readFileSync(full, 'utf8') : '';
}

describe('relative links in the docs', () => {
  it('there are some', () => {
    expect(docFiles().flatMap(links).length).toBeGreaterThan(50);
  });

  it('every one resolves to a file and a heading', () => {
    expect(linkProblems(docFiles(), readRepository)).toEqual([]);
  });

  it('fails on a missing file and a missing heading; ignores links in code and absolute URLs', () => {
    const pages: Record<string, string> = {
      'docs/a.md': [
        '# A',
        '## Set up: step 1',
        'See [b](b.md#run-it), [the step](#set-up-step-1), [gone](c.md), [bad](#nowhere),',
        '[up](../README.md#x), [web](https://example.com/y.md), `[code](nope.md)`.',
        '```sh',
        'echo [x](fenced.md)',
        '```',
      ].join('\n'),
      'docs/b.md': '# B\n\n## Run it\n',
      'README.md': '# R\n',
    };
    const problems = linkProblems([{ name: 'docs/a.md', text: pages['docs/a.md']! }], (name) => pages[name]);
    expect(problems).toEqual([
      'docs/a.md:3: c.md: no file docs/c.md',
      'docs/a.md:3: #nowhere: docs/a.md has no heading #nowhere',
      'docs/a.md:4: ../README.md#x: README.md has no heading #x',
    ]);
  });
});
