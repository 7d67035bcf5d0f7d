/** Temporary config files for the loader tests, removed after each test. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import { loadConfig } from '../../src/config/load-config.ts';

/** A fresh folder under the OS temp dir, removed when the calling test ends. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-config-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `text` as `name` in a fresh folder and returns its path. */
export async function writeConfig(text: string, name = 'config.yaml'): Promise<string> {
  const file = path.join(await tempDir(), name);
  await writeFile(file, text);
  return file;
}

/** Loads `text` expecting failure; returns the ConfigError's message lines. */
export async function configErrorLines(
  text: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ file: string; lines: string[] }> {
  const file = await writeConfig(text);
  const error = await loadConfig(file, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).exitCode).toBe(2);
  return { file, lines: (error as ConfigError).message.split('\n') };
}

/**
 * `text` with the common indentation of a template literal removed, so configs in tests
 * read as the user writes them. Write `\${VAR}` for a YAML `${VAR}`.
 */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings
    .reduce((out, part, i) => out + part + (i < values.length ? String(values[i]) : ''), '')
    .replace(/^\n/, '');
  const indent = /^ */.exec(text)?.[0].length ?? 0;
  return text
    .split('\n')
    .map((line) => line.slice(Math.min(indent, /^ */.exec(line)?.[0].length ?? 0)))
    .join('\n');
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The `${VAR}` names a config text refers to. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((m) => m[1]!))];
}

/** A dummy value for each referenced variable; a URL where the config needs one. */
export function dummyEnv(names: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(
    // Lowercase with hyphens: valid wherever a value must be an id (a GCP project id has no underscores).
    names.map((name) => [
      name,
      name === 'DATABASE_URL'
        ? 'postgres://aivis@db.internal:5432/warehouse'
        : `dummy-${name.toLowerCase().replaceAll('_', '-')}`,
    ]),
  );
}

/** Writes `text` into a fresh folder with every api_key_file pointed at a dummy key there. */
export async function withDummyKeyFile(text: string): Promise<string> {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'api-key'), 'sk_dummy_example_key\n', { mode: 0o600 });
  const file = path.join(dir, 'config.yaml');
  await writeFile(file, text.replace(/^(\s*api_key_file:)\s*\S+/gm, `$1 ${path.join(dir, 'api-key')}`));
  return file;
}
