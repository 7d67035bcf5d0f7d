/**
 * README.md stays a front door: at most 250 lines, and it links to every page of the manual
 * in docs/, so each page can be found from it.
 */
import { describe, expect, it } from 'vitest';
import { docFiles, links } from './markdown.ts';

describe('README.md as the front door', () => {
  const files = docFiles();
  const readme = files.find((f) => f.name === 'README.md')!;

  it('is at most 250 lines (details belong in docs/)', () => {
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links to every page in docs/', () => {
    const targets = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const pages = files.map((f) => f.name).filter((name) => name.startsWith('docs/'));
    expect(pages.filter((page) => !targets.has(page))).toEqual([]);
  });
});
