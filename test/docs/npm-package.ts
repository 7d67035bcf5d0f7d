/**
 * The checkout's package.json and package-lock.json as the docs tests read them: what `npm ci`
 * and `npm run` will find.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './markdown.ts';

const json = (name: string) => JSON.parse(readFileSync(path.join(ROOT, name), 'utf8'));

export const pkg = json('package.json') as {
  name: string;
  version: string;
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};

const lock = json('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

/** The packages of the lock file that carry an install script, by name. */
export const withInstallScripts = Object.entries(lock.packages)
  .filter(([where, entry]) => where !== '' && entry.hasInstallScript)
  .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
  .sort();
