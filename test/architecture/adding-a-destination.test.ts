/**
 * The recipe of docs/architecture.md#adding-a-destination, followed literally: every registered
 * destination has each file its table lists, the toy destination (test/connectors/toy/) is added
 * by exactly those files, and no file in `src/` names a destination in its code (only the
 * registry and each descriptor's dialect do).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DESTINATIONS } from '../../connectors/registry.ts';
import { ROOT } from '../docs/markdown.ts';

interface RecipeFile {
  readonly path: string;
  readonly change: 'added' | 'edited';
}

/** The rows of the page's `| file | added or edited | what it holds |` table. */
function recipeFiles(page: string): RecipeFile[] {
  const lines = page.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| file | added or edited |'));
  const rows: RecipeFile[] = [];
  for (const line of header < 0 ? [] : lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [file, change] = line.split('|').slice(1, 3);
    rows.push({ path: /`([^`]+)`/.exec(file!)![1]!, change: change!.trim() as RecipeFile['change'] });
  }
  return rows;
}

/** The text of every string literal and template piece of a TypeScript source: its code, not its comments. */
function codeStrings(file: string, source: string): string[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) out.push(node.text);
    node.forEachChild(visit);
  };
  visit(parsed);
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((entry) => {
    const name = `${dir}/${entry}`;
    if (statSync(path.join(ROOT, name)).isDirectory()) return tsFiles(name);
    return entry.endsWith('.ts') ? [name] : [];
  });
}

const recipe = recipeFiles(readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
const types = DESTINATIONS.destinations.map((d) => d.type);
const exists = (file: string) => {
  try {
    return statSync(path.join(ROOT, file)).isFile();
  } catch {
    return false;
  }
};

describe('adding a destination, as docs/architecture.md lists it', () => {
  it('is ten files, none in src/', () => {
    expect(recipe).toHaveLength(10);
    expect(recipe.filter((f) => f.path.startsWith('src/'))).toEqual([]);
  });

  it.each(types)('%s has every file of the list', (type) => {
    const missing = recipe.map((f) => f.path.replaceAll('<name>', type)).filter((file) => !exists(file));
    expect(missing).toEqual([]);
    // The edited files name it: the registry its descriptor, the configuration page its block.
    expect(readFileSync(path.join(ROOT, 'connectors/registry.ts'), 'utf8')).toContain(`./${type}/descriptor.ts`);
    expect(readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8')).toContain(`type: ${type}`);
  });

  it("the toy is added by exactly the list's files: its folder, its config schema and its conformance wiring", () => {
    const folder = recipe.filter((f) => f.path.startsWith('connectors/<name>/')).map((f) => path.basename(f.path));
    const own = [
      ...folder.map((file) => file.replaceAll('<name>', 'toy')),
      // Where a registered one has `schemas/destinations/<name>.ts` and its test folder.
      'toy-config.ts',
      'conformance.test.ts',
      // This recipe's own test: the toy's registry line (`WITH_TOY`) and what it proves.
      'toy-destination.test.ts',
    ];
    expect(readdirSync(path.join(ROOT, 'test/connectors/toy')).sort()).toEqual(own.sort());
  });

  it('no file in src/ names a destination in its code', () => {
    const named = new RegExp(`\\b(${types.join('|')})\\b`, 'i');
    const found = tsFiles('src').flatMap((file) =>
      codeStrings(file, readFileSync(path.join(ROOT, file), 'utf8'))
        .filter((text) => named.test(text))
        .map((text) => `${file}: ${text.slice(0, 80)}`),
    );
    expect(found).toEqual([]);
  });

  it('finds a destination named in code, not in a comment', () => {
    const source = "// postgres here is a comment\nconst cast = type === 'bigquery' ? 'string' : 'varchar';";
    expect(codeStrings('x.ts', source).filter((text) => /\bbigquery\b|\bpostgres\b/.test(text))).toEqual(['bigquery']);
  });
});
