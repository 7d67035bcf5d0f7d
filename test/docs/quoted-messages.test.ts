/**
 * The messages docs/troubleshooting.md quotes exist in the code. Each line of a `text` block
 * there is one message as a user sees it, with `<...>` where it varies; every fixed part of it
 * must appear in a string of src/, connectors/, schemas/ or bin/ (string pieces joined with
 * `+` count as one), so a reworded message fails this test until the page follows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DocFile, docFiles, fences, ROOT } from './markdown.ts';

/** The code's text with `'...' +\n '...'` joins and `\${` escapes undone, as a message reads. */
function codeText(): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const name = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (/\.(ts|cjs)$/.test(name)) texts.push(readFileSync(path.join(ROOT, name), 'utf8'));
    }
  };
  for (const dir of ['src', 'connectors', 'schemas', 'bin']) walk(dir);
  return texts
    .join('\n')
    .replace(/(['"`])\s*\+\s*(['"`])/g, '')
    .replaceAll('\\${', '${')
    .replaceAll("\\'", "'");
}

/** The fixed parts of a quoted message: the text between `<...>` placeholders, ends trimmed of spaces and punctuation. */
function fixedParts(message: string): string[] {
  return message
    .split(/<[^<>]*>/)
    .map((part) => part.replace(/^[\s:;,.()"'?-]+|[\s:;,.()"'?-]+$/g, ''))
    .filter((part) => part.length >= 4);
}

/** The quoted messages of `file`'s `text` blocks that the code does not hold (empty when all are there). */
function missingMessages(file: DocFile, code: string): string[] {
  const problems: string[] = [];
  for (const fence of fences(file).filter((f) => f.lang === 'text')) {
    for (const message of fence.body.split('\n').filter((line) => line.trim() !== '')) {
      const missing = fixedParts(message).filter((part) => !code.includes(part));
      if (missing.length > 0)
        problems.push(`${fence.where}: "${message}": not in the code: ${missing.map((m) => `"${m}"`).join(', ')}`);
    }
  }
  return problems;
}

const troubleshooting = (): DocFile => docFiles().find((f) => f.name === 'docs/troubleshooting.md')!;

describe('messages quoted in docs/troubleshooting.md', () => {
  const code = codeText();

  it('quotes many messages', () => {
    const quoted = fences(troubleshooting()).filter((f) => f.lang === 'text');
    expect(quoted.length).toBeGreaterThan(20);
  });

  it('each one is in the code as quoted', () => {
    expect(missingMessages(troubleshooting(), code)).toEqual([]);
  });

  it('fails on a message the code does not say, and on a reworded one', () => {
    const broken: DocFile = {
      name: 'docs/troubleshooting.md',
      text: [
        '```text',
        'API key rejected <tag>: check source.api_key or source.api_key_file',
        'API key refused <tag>: check source.api_key',
        'the flux capacitor is out of <fuel>',
        '```',
      ].join('\n'),
    };
    expect(missingMessages(broken, code)).toEqual([
      'docs/troubleshooting.md:1: "API key refused <tag>: check source.api_key": not in the code: "API key refused"',
      'docs/troubleshooting.md:1: "the flux capacitor is out of <fuel>": not in the code: "the flux capacitor is out of"',
    ]);
  });
});
