/**
 * A Postgres `destination.url` that is not a URL (a `#` in the password, unencoded) is a
 * config error every verb reports alike, when it loads the config: exit 2, one message that
 * says how to write it, never the password, and never an "unexpected error" from code that
 * parses the URL later (the lineage dataset names of a run that failed to open).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';
import { finalMessage } from '../support/json-lines.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-dest-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `#` starts the fragment, so `s3cret` becomes the port: no URL parser accepts it. */
const NOT_A_URL = 'postgres://u:s3cret#pw@localhost/db';
const file = path.join(dir, 'aivis.yaml');
writeFileSync(
  file,
  [
    'source:',
    '  base_url: http://127.0.0.1:9',
    '  api_key: ${DU_KEY}',
    'destination:',
    '  type: postgres',
    '  url: ${DU_DATABASE_URL}',
    '',
  ].join('\n'),
);

describe('a postgres destination.url that is not a URL', () => {
  it.each([['sync'], ['backfill', '--streams', 'mentions', '--since', '2020-01-01T00:00:00Z'], ['state', 'show']])(
    '%s: exit 2, says how to write it, never prints the password',
    async (...verb) => {
      const result = await runCli([...verb, '--config', file], {
        DU_KEY: 'test-key',
        DU_DATABASE_URL: NOT_A_URL,
        AIVIS_LOG_LEVEL: 'warn',
      }).done;
      const output = `${result.stdout}\n${result.stderr}`;
      expect({ code: result.code, message: finalMessage(result.stderr) }, output).toEqual({
        code: 2,
        // The hint's own example reads as written: the redactor masks passwords, not placeholders.
        message: expect.stringMatching(
          /aivis\.yaml:6: destination\.url is not a URL: write it as postgres:\/\/user:<password>@host:5432\/database$/,
        ),
      });
      expect(output).not.toContain('unexpected error');
      expect(output).not.toContain('s3cret');
    },
  );
});
