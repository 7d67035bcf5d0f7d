/**
 * The parts of the user docs (README.md and docs/) that the docs tests check: fenced blocks
 * with their fence's words, headings as GitHub anchors, and relative links. The fence
 * convention (docs/architecture.md#docs): `sh`/`console` lines starting with `aivis` are
 * commands; `yaml` is a whole config unless marked `fragment`; `sql` runs on DuckDB and
 * Postgres unless `for=` names other destinations or it is marked `fragment`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A Markdown file of the docs: its path from the repository root and its text. */
export interface DocFile {
  readonly name: string;
  readonly text: string;
}

/** README.md, CHANGELOG.md and every Markdown file under docs/. */
export function docFiles(): DocFile[] {
  const names = ['README.md', 'CHANGELOG.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const name = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (name.endsWith('.md')) names.push(name);
    }
  };
  walk('docs');
  return names.sort().map((name) => ({ name, text: readFileSync(path.join(ROOT, name), 'utf8') }));
}

/** One fenced code block. */
export interface Fence {
  /** The language, the fence's first word (`sql`, `yaml`, ...; '' when none). */
  readonly lang: string;
  /** The fence's other words: `fragment`, `for=bigquery,snowflake`. */
  readonly words: readonly string[];
  /** The block's text, the fence's own indentation removed. */
  readonly body: string;
  /** Where it is: `docs/x.md:12` (the opening fence's line). */
  readonly where: string;
}

const FENCE = /^( *)(`{3,}|~{3,})(.*)$/;

/** Where a fenced block is: its opening and closing lines (0-based), its indentation and its fence's words. */
interface FenceSpan {
  readonly open: number;
  readonly close: number;
  readonly indent: number;
  readonly info: string;
}

/** The fenced blocks of a text, in order; a block left open runs to the end. */
function fenceSpans(lines: readonly string[]): FenceSpan[] {
  const spans: FenceSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, marker, info] = open as unknown as [string, string, string, string];
    let j = i + 1;
    while (j < lines.length) {
      const close = FENCE.exec(lines[j]!);
      if (close?.[2]?.startsWith(marker) && close[3]?.trim() === '') break;
      j++;
    }
    spans.push({ open: i, close: j, indent: indent.length, info });
    i = j;
  }
  return spans;
}

/** Every fenced block of `file`, in order. */
export function fences(file: DocFile): Fence[] {
  const lines = file.text.split('\n');
  return fenceSpans(lines).map(({ open, close, indent, info }) => {
    const body = lines.slice(open + 1, close).map((line) => line.slice(Math.min(indent, /^ */.exec(line)![0].length)));
    const [lang = '', ...words] = info.trim().split(/\s+/).filter(Boolean);
    return { lang, words, body: body.join('\n'), where: `${file.name}:${open + 1}` };
  });
}

/** The destinations a `sql` block runs on: all but those its `for=` leaves out; none when a fragment. */
export function sqlTargets(fence: Fence): string[] {
  if (fence.words.includes('fragment')) return [];
  const only = fence.words.find((w) => w.startsWith('for='));
  const all = ['duckdb', 'postgres'];
  return only === undefined ? all : all.filter((d) => only.slice(4).split(',').includes(d));
}

/** The text outside fenced blocks (each block's lines blanked, so line numbers hold). */
function prose(text: string): string[] {
  const lines = text.split('\n');
  for (const { open, close } of fenceSpans(lines)) lines.fill('', open, close + 1);
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** A link in the prose: its target as written and where it is. */
export interface Link {
  readonly target: string;
  readonly where: string;
}

/** Every inline link and image of `file` outside code (`[text](target)`), in order. */
export function links(file: DocFile): Link[] {
  const found: Link[] = [];
  prose(file.text).forEach((line, i) => {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      found.push({ target: match[1]!, where: `${file.name}:${i + 1}` });
    }
  });
  return found;
}

/** One simple command of a shell line: the line it is on, its `VAR=value` prefixes and its words. */
export interface ShellCommand {
  readonly line: string;
  readonly env: Readonly<Record<string, string>>;
  readonly words: string[];
}

/**
 * The commands of a `sh` or `console` block, in order: continuation lines joined, comments and
 * a `$ ` prompt dropped, a line split at `&&`, `||`, `|` and `;`, each command's leading
 * `VAR=value` words taken as its environment.
 */
export function shellCommands(fence: Fence): ShellCommand[] {
  if (fence.lang !== 'sh' && fence.lang !== 'console') return [];
  const commands: ShellCommand[] = [];
  for (const raw of fence.body.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.replace(/^\s*\$\s+/, '').trim();
    for (const words of shellWords(line)) {
      const env: Record<string, string> = {};
      while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
        const [name, ...value] = words.shift()!.split('=');
        env[name!] = value.join('=');
      }
      if (words.length > 0) commands.push({ line, env, words });
    }
  }
  return commands;
}

/**
 * The `aivis` command lines of a `sh` or `console` block, each as its arguments (after `aivis`):
 * the block's commands (see `shellCommands`) that run `aivis` or `npx aivis`.
 */
export function aivisCommands(fence: Fence): { line: string; args: string[] }[] {
  return shellCommands(fence).flatMap(({ line, words }) => {
    const command = words[0] === 'npx' ? words.slice(1) : words;
    return command[0] === 'aivis' ? [{ line, args: command.slice(1) }] : [];
  });
}

/** A shell line's commands, each as the words the shell would pass (quotes removed), up to a comment. */
function shellWords(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    } else if (/\s/.test(c)) {
      endWord();
    } else if (c === '#' && word === undefined) {
      break;
    } else if (c === ';' || c === '|' || (c === '&' && line[i + 1] === '&')) {
      endWord();
      commands.push(words);
      words = [];
      if (line[i + 1] === c) i++;
    } else {
      word = (word ?? '') + c;
    }
  }
  endWord();
  commands.push(words);
  return commands.filter((command) => command.length > 0);
}

/** Every inline code span of `file`'s prose (outside fenced blocks), a span over a line break read as one line. */
export function inlineCode(file: DocFile): { code: string; where: string }[] {
  const text = prose(file.text).join('\n');
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => ({
    code: m[1]!.replace(/\s*\n\s*/g, ' '),
    where: `${file.name}:${text.slice(0, m.index).split('\n').length}`,
  }));
}
