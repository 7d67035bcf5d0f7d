/**
 * The state file and the import journal are replaced through an exclusive, private,
 * fsynced temporary file: a symlink planted where the old code wrote its predictable
 * `<path>.<pid>.tmp` is never followed, and the files are readable by their owner only.
 */
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../src/files/atomic-write.ts';
import { ImportJournal } from '../../src/import/import-journal.ts';
import { FileStateStore } from '../../src/state/file-state-store.ts';
import { stateEntry } from '../conformance/fixtures.ts';
import { openFakeDestination } from '../support/fake-destination.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-atomic-'));
  dirs.push(dir);
  return dir;
}

/** A file another user would like aivis to overwrite, and a symlink to it at `at`. */
function plantSymlink(dir: string, at: string): string {
  const victim = path.join(dir, 'victim.txt');
  writeFileSync(victim, 'untouched\n');
  symlinkSync(victim, at);
  return victim;
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe('writeFileAtomically', () => {
  it('writes the content with mode 0600 and leaves no temporary file behind', async () => {
    const dir = folder();
    const target = path.join(dir, 'state.json');
    writeFileSync(target, 'old\n', { mode: 0o644 });
    await writeFileAtomically(target, 'new\n');
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(mode(target)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('fails, writing nothing, when the folder does not exist', async () => {
    const dir = folder();
    await expect(writeFileAtomically(path.join(dir, 'missing', 'state.json'), 'x')).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the state file', () => {
  it('does not follow a symlink planted at <path>.<pid>.tmp, and is private', async () => {
    const dir = folder();
    const statePath = path.join(dir, 'aivis-state.json');
    const victim = plantSymlink(dir, `${statePath}.${process.pid}.tmp`);
    const store = new FileStateStore(statePath);
    const entry = stateEntry('mentions', 'web_1', '2026-03-01T00:00:00Z');
    await store.commit(await openFakeDestination(), { tables: [], state: [entry] });

    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(lstatSync(statePath).isFile()).toBe(true);
    expect(mode(statePath)).toBe(0o600);
    expect(await new FileStateStore(statePath).load()).toEqual([entry]);
  });
});

describe('the import journal', () => {
  it('does not follow a symlink planted at <path>.tmp-<pid>, and is private', async () => {
    const dir = folder();
    const journalPath = path.join(dir, 'prompts.csv.import-journal.json');
    const victim = plantSymlink(dir, `${journalPath}.tmp-${process.pid}`);
    const expectImport = { website_id: 'web_1', validate_only: false, classification: 'auto' };
    const now = new Date('2026-03-01T12:00:00Z');
    const journal = await ImportJournal.open(journalPath, expectImport, now);
    const partition = { first_line: 2, last_line: 3, items: 2, bytes: 120, body_sha256: 'ab'.repeat(32) };
    await journal.record(0, partition, { idempotency_key: 'aivis-key-1', status: 'sending' }, now);

    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(lstatSync(journalPath).isFile()).toBe(true);
    expect(mode(journalPath)).toBe(0o600);
    const reopened = await ImportJournal.open(journalPath, expectImport, now);
    expect(reopened.partition(0)).toEqual({
      ...partition,
      attempts: [{ idempotency_key: 'aivis-key-1', status: 'sending', updated_at: '2026-03-01T12:00:00.000Z' }],
    });
  });
});
