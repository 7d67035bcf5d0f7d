/**
 * `npm run lint`'s layer check (the `depcruise` script, .dependency-cruiser.cjs) run on a tiny
 * planted tree in a temp dir: it passes a tree that keeps the layers and fails one with a cycle
 * or with a connector imported from src/sync/ past the registry. The real config and tsconfig are
 * copied, and the script is run as package.json spells it.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');
const COPIED = ['.dependency-cruiser.cjs', 'tsconfig.json'];
/** The script `npm run lint` runs after Biome, as package.json spells it. */
const script = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts.depcruise as string;

/** A tree that keeps every layer rule: src/sync reaches a connector through connectors/registry.ts. */
const LAYERED: Record<string, string> = {
  'schemas/contract.ts': 'export const LIMIT = 1;\n',
  'connectors/duckdb/index.ts': "import { LIMIT } from '../../schemas/contract.ts';\nexport const duckdb = LIMIT;\n",
  'connectors/registry.ts': "import { duckdb } from './duckdb/index.ts';\nexport const registry = [duckdb];\n",
  'src/sync/run.ts': "import { registry } from '../../connectors/registry.ts';\nexport const run = registry;\n",
  'test/run.test.ts': "import { run } from '../src/sync/run.ts';\nexport const ran = run;\n",
  'scripts/generate.ts': "import { LIMIT } from '../schemas/contract.ts';\nexport const generated = LIMIT;\n",
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the lint's depcruise step in a temp copy of the config holding `files`. */
async function depcruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-layers-'));
  dirs.push(dir);
  for (const name of COPIED) copyFileSync(path.join(ROOT, name), path.join(dir, name));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const [command, ...args] = script.split(' ');
  expect(command).toBe('depcruise');
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [DEPCRUISE, ...args], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("npm run lint's layer rules", () => {
  it('pass a tree that keeps the layers', async () => {
    const { code, output } = await depcruise(LAYERED);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fail on a planted cycle, even one closed by a type-only import', async () => {
    const { code, output } = await depcruise({
      ...LAYERED,
      'src/sync/planted-a.ts': "import { b } from './planted-b.ts';\nexport const a = b;\n",
      'src/sync/planted-b.ts':
        "import type { Run } from './planted-a.ts';\nexport const b = 1;\nexport type Run = number;\n",
    });
    expect(output).toMatch(
      /error no-circular: src\/sync\/planted-a\.ts →\s+src\/sync\/planted-b\.ts →\s+src\/sync\/planted-a\.ts/,
    );
    expect(code).not.toBe(0);
  });

  it('fail on a connector imported from src/sync past the registry', async () => {
    const { code, output } = await depcruise({
      ...LAYERED,
      'src/sync/planted.ts':
        "import { duckdb } from '../../connectors/duckdb/index.ts';\nexport const planted = duckdb;\n",
    });
    expect(output).toContain(
      'error src-reaches-connectors-through-the-registry: src/sync/planted.ts → connectors/duckdb/index.ts',
    );
    expect(code).not.toBe(0);
  });
});
