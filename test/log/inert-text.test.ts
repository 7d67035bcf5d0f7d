/** Log lines stay one line each, whatever a message holds (see src/log/inert-text.ts). */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { terminalLine, terminalMessage } from '../../src/log/inert-text.ts';

const FORGED = 'refused\n{"level":"info","msg":"run finished"}\r\u001b]52;c;ZXZpbA==\u0007\u2028end\u0085';

function logged(json: boolean): string[] {
  const lines: string[] = [];
  createLogger({
    json,
    level: 'info',
    write: (line) => lines.push(line),
    now: () => new Date('2026-03-01T00:00:00Z'),
  }).warn(FORGED, { detail: 'a\nb' });
  return lines;
}

describe('the logger', () => {
  it('off a terminal writes one JSON object whose msg is the text exactly, with no raw control character', () => {
    const [line, ...rest] = logged(true);
    expect(rest).toEqual([]);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(JSON.parse(line!)).toEqual({ ts: '2026-03-01T00:00:00.000Z', level: 'warn', msg: FORGED, detail: 'a\nb' });
  });

  it('on a terminal writes one line with every control character escaped', () => {
    expect(logged(false)).toEqual([
      'WARN refused\\n{"level":"info","msg":"run finished"}\\r\\x1b]52;c;ZXZpbA==\\x07\\u2028end\\x85 detail=a\\nb',
    ]);
  });
});

/** A right-to-left override and the other invisible format characters a server's text may carry. */
const REORDERED = 'quota \u202eexceeded\u202c for \u2066key\u2069 \u200bx\u200f\u2060\ufeff\u{e0041}.';

describe('bidi controls and invisible format characters', () => {
  it('off a terminal are escaped in the JSON line, and the message parses back to the text exactly', () => {
    const lines: string[] = [];
    createLogger({ json: true, level: 'info', write: (line) => lines.push(line) }).error(REORDERED, {
      error: REORDERED,
    });
    expect(lines[0]).not.toMatch(/\p{Cf}/u);
    expect(lines[0]).toContain(
      '"msg":"quota \\u202eexceeded\\u202c for \\u2066key\\u2069 \\u200bx\\u200f\\u2060\\ufeff\\udb40\\udc41."',
    );
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: REORDERED, error: REORDERED });
  });

  it('on a terminal are shown escaped, in one line and in a message of several', () => {
    const shown = 'quota \\u202eexceeded\\u202c for \\u2066key\\u2069 \\u200bx\\u200f\\u2060\\ufeff\\udb40\\udc41.';
    expect(terminalLine(REORDERED)).toBe(shown);
    expect(terminalMessage(`aivis: ${REORDERED}\nnext`)).toBe(`aivis: ${shown}\n  next`);
    // The soft hyphen (U+00AD) is a format character too.
    expect(terminalLine('a\u00adb')).toBe('a\\xadb');
  });
});

describe('terminalMessage', () => {
  it('keeps the lines of a multi-line message, indents all but the first, escapes the rest', () => {
    expect(terminalMessage('aivis: config.yaml:3: bad\nconfig.yaml:9: worse\r\u001b[2J')).toBe(
      'aivis: config.yaml:3: bad\n  config.yaml:9: worse\\r\\x1b[2J',
    );
  });
});
