/**
 * docs/getting-started.md says what a run's log lines look like where a user first meets them:
 * `message key=value` on a terminal, one JSON object per line elsewhere. The logger writes
 * exactly those two forms.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { docFiles } from './markdown.ts';

/** The lines a logger in the given form writes for one info and one warning. */
function written(json: boolean): string[] {
  const lines: string[] = [];
  const logger = createLogger({ json, write: (line) => lines.push(line), now: () => new Date(0) });
  logger.info('run finished', { status: 'succeeded' });
  logger.warn('description not set', { table: 'websites' });
  return lines;
}

describe('log lines as getting-started.md shows them', () => {
  const page = docFiles()
    .find((f) => f.name === 'docs/getting-started.md')!
    .text.replace(/\s+/g, ' ');

  it('on a terminal: message key=value, WARN before a warning', () => {
    expect(page).toContain(
      'on a terminal a live progress line and short `message key=value` lines (`WARN ` before a warning)',
    );
    expect(written(false)).toEqual(['run finished status=succeeded', 'WARN description not set table=websites']);
  });

  it('elsewhere: one JSON object per line', () => {
    expect(page).toContain('elsewhere (a pipe, a container, a scheduler) one JSON object per line');
    expect(written(true).map((line) => JSON.parse(line))).toEqual([
      { ts: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'run finished', status: 'succeeded' },
      { ts: '1970-01-01T00:00:00.000Z', level: 'warn', msg: 'description not set', table: 'websites' },
    ]);
  });
});
