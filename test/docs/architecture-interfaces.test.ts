/**
 * docs/architecture.md#adding-a-destination lists, member by member, the interfaces a connector
 * implements: each row is read against the interface in its file (through the TypeScript
 * compiler's own parse), so a member added, removed or made optional makes the page wrong and
 * this test fail.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './markdown.ts';

interface ListedInterface {
  readonly name: string;
  readonly file: string;
  readonly members: readonly string[];
}

/** The rows of the page's `| interface | file | members |` table. */
function listedInterfaces(page: string): ListedInterface[] {
  const lines = page.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| interface | file | members |'));
  if (header < 0) return [];
  const rows: ListedInterface[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [name, file, members] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    rows.push({ name: code(name!)[0]!, file: code(file!)[0]!, members: code(members!) });
  }
  return rows;
}

/** The members of `name` declared in `file` (its own, not inherited), `?` after an optional one; undefined when there is no such interface. */
function declaredMembers(source: string, file: string, name: string): string[] | undefined {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const declaration = parsed.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  return declaration?.members.map((m) => `${m.name?.getText(parsed) ?? ''}${m.questionToken ? '?' : ''}`);
}

const page = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

describe('the interfaces docs/architecture.md lists', () => {
  const listed = listedInterfaces(page);

  it('are the ones a connector implements', () => {
    expect(listed.map((i) => i.name)).toEqual([
      'Destination',
      'SqlDialect',
      'JsonAccess',
      'BookkeepingSession',
      'QueryRole',
      'DestinationDescriptor',
      'DestinationConnector',
    ]);
  });

  it.each(listed.map((i) => [i.name, i] as const))(
    '%s: the page lists its members as the code declares them',
    (_, row) => {
      const source = readFileSync(path.join(ROOT, row.file), 'utf8');
      expect(declaredMembers(source, row.file, row.name)).toEqual(row.members);
    },
  );

  it('a member the page lacks, or one the code lacks, is found', () => {
    const source = 'export interface Shape { a: string; b?(): void; c(): number }';
    expect(declaredMembers(source, 'shape.ts', 'Shape')).toEqual(['a', 'b?', 'c']);
    const table = ['| interface | file | members |', '| --- | --- | --- |', '| `Shape` | `shape.ts` | `a`, `b?` |'];
    const [row] = listedInterfaces(table.join('\n'));
    expect(row).toEqual({ name: 'Shape', file: 'shape.ts', members: ['a', 'b?'] });
    expect(declaredMembers(source, 'shape.ts', 'Shape')).not.toEqual(row!.members);
  });
});
