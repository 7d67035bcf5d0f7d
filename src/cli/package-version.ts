/**
 * The version of the aivis package this file belongs to, read from its own package.json,
 * wherever it is installed. yargs' own guess starts from the command's path, which for an
 * npm-installed bin (`node_modules/.bin/aivis`) finds the project that installed aivis, and
 * printed `unknown`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walks up from this file (src/cli/ in a checkout, dist/src/cli/ when built) to aivis's package.json. */
export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (name === 'aivis' && version) return version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
