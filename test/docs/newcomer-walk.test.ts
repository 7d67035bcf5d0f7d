/**
 * README.md and docs/getting-started.md walked as a newcomer walks them, once into DuckDB and
 * once into Postgres: the page's own `aivis sandbox` line started with its data clock pinned
 * (`--clock`, so the data never varies), the page's YAML config for that destination saved as
 * `aivis.yaml` (the sandbox's port and, for Postgres, a fresh database of the test server put
 * in), then every `aivis` line of its `sh` blocks and every `sql` block run in page order, each
 * as a child process as a user runs it: SQL through `aivis query` on DuckDB and through pg (what
 * `psql` would send) on Postgres. Every command must exit 0, and where the page shows output (the
 * `text` blocks right after a `sh` block show, in order, the output of its last `aivis` lines)
 * stdout must match it line by line, `<...>` matching any text and a line that is only `<...>`
 * or `...` any lines. The other lines (`npm ci`, `source .ci/node.sh`, `export`, `psql`) are
 * checked as text: what they name exists, and every tool a command uses is one the page names;
 * a `duckdb` command, a tool nobody installed, fails.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import YAML from 'yaml';
import { runCli } from '../support/cli-process.ts';
import {
  type DocFile,
  docFiles,
  type Fence,
  fences,
  inlineCode,
  ROOT,
  type ShellCommand,
  shellCommands,
  sqlTargets,
} from './markdown.ts';
import { pkg, withInstallScripts } from './npm-package.ts';

/** Where the walk pins the sandbox's data clock: the timestamp getting-started pins it at. */
const CLOCK = '2026-01-01T00:00:00Z';

type Destination = 'duckdb' | 'postgres';

/** One thing the newcomer does, in page order. */
type Step =
  | {
      readonly kind: 'aivis';
      readonly where: string;
      readonly command: ShellCommand;
      readonly args: string[];
      /** The page's `text` block of its output, if it shows one. */
      readonly shown?: Fence;
    }
  | { readonly kind: 'shell'; readonly where: string; readonly command: ShellCommand }
  | { readonly kind: 'sql'; readonly where: string; readonly body: string; readonly targets: string[] }
  /** A `text` block after a `sh` block with no `aivis` line left to have printed it. */
  | { readonly kind: 'unclaimed output'; readonly where: string };

/** The steps of a page: its `sh` commands and `sql` blocks in order, each `aivis` line with its shown output. */
function stepsOf(file: DocFile): Step[] {
  const blocks = fences(file);
  const steps: Step[] = [];
  blocks.forEach((fence, i) => {
    if (fence.lang === 'sql') {
      steps.push({ kind: 'sql', where: fence.where, body: fence.body, targets: sqlTargets(fence) });
      return;
    }
    if (fence.lang !== 'sh') return;
    const shown: Fence[] = [];
    for (let j = i + 1; blocks[j]?.lang === 'text'; j++) shown.push(blocks[j]!);
    const commands = shellCommands(fence);
    const aivis = commands.filter((c) => aivisArgs(c) !== undefined);
    // The n text blocks after the block show the output of its last n aivis lines.
    const firstShown = aivis.length - shown.length;
    for (const command of commands) {
      const args = aivisArgs(command);
      if (args === undefined) steps.push({ kind: 'shell', where: fence.where, command });
      else {
        const index = aivis.indexOf(command) - firstShown;
        steps.push({ kind: 'aivis', where: fence.where, command, args, ...(index >= 0 && { shown: shown[index] }) });
      }
    }
    if (firstShown < 0) steps.push({ kind: 'unclaimed output', where: shown[0]!.where });
  });
  return steps;
}

/** A command's arguments after `aivis` or `npx aivis`; undefined when it runs something else. */
function aivisArgs({ words }: ShellCommand): string[] | undefined {
  const command = words[0] === 'npx' ? words.slice(1) : words;
  return command[0] === 'aivis' ? command.slice(1) : undefined;
}

/** The page's `export NAME=value` lines and spans, in order. */
function exportsOf(file: DocFile): Record<string, string> {
  const assignments = [
    ...fences(file)
      .flatMap(shellCommands)
      .filter((c) => c.words[0] === 'export')
      .flatMap((c) => c.words.slice(1)),
    ...inlineCode(file).flatMap(({ code }) => (code.startsWith('export ') ? code.split(/\s+/).slice(1) : [])),
  ];
  return Object.fromEntries(assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
}

/** The page's whole YAML config for `destination` (its first), if it has one. */
function configOf(file: DocFile, destination: Destination): string | undefined {
  return fences(file).find(
    (f) =>
      f.lang === 'yaml' &&
      !f.words.includes('fragment') &&
      (YAML.parse(f.body) as { destination?: { type?: string } })?.destination?.type === destination,
  )?.body;
}

/** What is wrong with a non-aivis line as text: a tool nobody installed, a script or file that is not there. */
function shellProblem({ words }: ShellCommand, named: ReadonlySet<string>): string | undefined {
  const [tool, ...args] = words as [string, ...string[]];
  if (tool === 'duckdb')
    return 'the duckdb CLI is not installed by anything the page names: query with aivis query --config F "SQL" (docs/cli.md#query)';
  if (tool === 'export')
    return args.every((a) => /^[A-Za-z_]\w*=\S*$/.test(a)) ? undefined : 'export takes NAME=value words';
  if (tool === 'source') return existsSync(path.join(ROOT, args[0] ?? '')) ? undefined : `${args[0]} does not exist`;
  if (!named.has(tool)) return `${tool} is a tool the page neither installs nor names in its text`;
  if (tool === 'npm') {
    const [verb, script] = args;
    if (verb === 'ci') {
      if (!existsSync(path.join(ROOT, 'package-lock.json'))) return 'npm ci needs package-lock.json';
      // An install script npm 11 has not been told to run ends npm ci with `npm warn install-scripts`.
      const approved = withInstallScripts.filter((name) => pkg.allowScripts?.[name] === true);
      return approved.length === withInstallScripts.length
        ? undefined
        : `package.json's allowScripts does not approve ${withInstallScripts.filter((n) => !approved.includes(n)).join(', ')}`;
    }
    const name = verb === 'run' ? script : verb;
    return name !== undefined && name in pkg.scripts ? undefined : `package.json has no script ${name}`;
  }
  if (tool === 'psql')
    return args[0] === '$DATABASE_URL' ? undefined : 'psql connects to "$DATABASE_URL", the config\'s';
  if (tool === 'curl')
    return args.every((a) => !/^https?:/.test(a) || new URL(a).hostname === '127.0.0.1')
      ? undefined
      : 'curl reaches only the sandbox on 127.0.0.1';
  return `${tool} is a tool this walk does not know: say what installs it, and teach the walk`;
}

/** Why the page's non-aivis lines fail as text, and any `duckdb` command in its prose (empty when none). */
function textProblems(file: DocFile): string[] {
  const named = new Set(inlineCode(file).map(({ code }) => code.split(/\s+/)[0]!));
  const problems = stepsOf(file).flatMap((step) => {
    if (step.kind === 'unclaimed output')
      return [`${step.where}: a text block with no aivis line before it to print it`];
    if (step.kind !== 'shell') return [];
    const problem = shellProblem(step.command, named);
    return problem === undefined ? [] : [`${step.where}: ${step.command.line}: ${problem}`];
  });
  for (const { code, where } of inlineCode(file)) {
    if (/^duckdb\s/.test(code))
      problems.push(`${where}: ${code}: ${shellProblem({ line: code, env: {}, words: ['duckdb'] }, named)}`);
  }
  return problems;
}

/** A shown line is a pattern: `<...>` matches any text; a line of only `<...>` or `...` matches any lines. */
const isGap = (line: string) => ['<...>', '...'].includes(line.trim());
const lineMatches = (shown: string, actual: string) =>
  new RegExp(
    `^${shown
      .split('<...>')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(actual);

/** How `actual` differs from the page's `shown` output: each shown line it does not print (empty when it matches). */
function outputMismatches(shown: string, actual: string): string[] {
  const lines = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => l.trimEnd());
  const [want, got] = [lines(shown), lines(actual)];
  const mismatches: string[] = [];
  let g = 0;
  for (let w = 0; w < want.length; w++) {
    if (isGap(want[w]!)) {
      const next = want[w + 1];
      if (next === undefined) return mismatches;
      while (g < got.length && !lineMatches(next, got[g]!)) g++;
    } else if (g >= got.length) {
      return [
        ...mismatches,
        `line ${w + 1} of the shown output, "${want[w]}", is not printed (it printed ${got.length} lines)`,
      ];
    } else if (!lineMatches(want[w]!, got[g]!)) {
      mismatches.push(`line ${w + 1} of the shown output, "${want[w]}", is printed as "${got[g]}"`);
      g++;
    } else g++;
  }
  return g < got.length ? [...mismatches, `it prints more than the page shows, from "${got[g]}"`] : mismatches;
}

/** Resolves with the sandbox's printed lines once it says `Stop with Ctrl-C.`; rejects if it exits first. */
function sandboxReady(child: ChildProcess): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const read = (data: Buffer) => {
      text += data;
      if (text.includes('Stop with Ctrl-C.\n')) {
        child.stdout!.off('data', read);
        resolve(text);
      }
    };
    child.stdout!.on('data', read);
    child.once('exit', (code) => reject(new Error(`aivis sandbox exited ${code} after printing:\n${text}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The page's sandbox line with `--port 0` (a free port) and, when `pinned`, `--clock`. */
function sandboxArgs(args: readonly string[], pinned: boolean): string[] {
  const at = args.indexOf('--port');
  const free = at < 0 ? [...args, '--port', '0'] : args.map((a, i) => (i === at + 1 ? '0' : a));
  return pinned && !free.includes('--clock') ? [...free, '--clock', CLOCK] : free;
}

/** How the walk runs: where, into what, and whether it compares shown output and runs what no destination changes. */
interface WalkOptions {
  readonly destination: Destination;
  /** The test server's database the Postgres walk loads into. */
  readonly databaseUrl?: string;
  /** The first walk of a page compares output and runs the lines without a config. */
  readonly first: boolean;
}

/** Walks `file` as a newcomer into `destination`; what went wrong, each naming its page line (empty when nothing). */
async function walk(file: DocFile, { destination, databaseUrl, first }: WalkOptions): Promise<string[]> {
  const config = configOf(file, destination);
  if (config === undefined) return [`${file.name}: no YAML config for ${destination}`];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-newcomer-'));
  const env = { ...exportsOf(file), ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }) };
  const problems: string[] = [];
  const running: ChildProcess[] = [];
  /** The page's sandbox address (`--port` of its line) and the walk's. */
  let pageUrl = 'http://127.0.0.1:8080';
  let baseUrl: string | undefined;
  const actualUrls = (text: string, url: string) => text.replaceAll(pageUrl, url);
  const database = databaseUrl === undefined ? undefined : new pg.Client({ connectionString: databaseUrl });
  await database?.connect();
  try {
    for (const step of stepsOf(file)) {
      // A text block no line printed fails the page's text check.
      if (step.kind === 'unclaimed output') continue;
      if (step.kind === 'sql') {
        if (!step.targets.includes(destination)) continue;
        for (const statement of step.body.split(/;[ \t]*(?:\n|$)/).filter((s) => s.trim() !== '')) {
          if (database) {
            await database
              .query(statement)
              .catch((e: Error) => problems.push(`${step.where} on postgres: ${e.message}`));
            continue;
          }
          const query = await runCli(['query', '--config', 'aivis.yaml', statement], env, { cwd: dir }).done;
          if (query.code !== 0)
            problems.push(`${step.where} on ${destination}: exit ${query.code}: ${query.stderr.trim()}`);
        }
      } else if (step.kind === 'shell') {
        const [tool, , flag, sql] = step.command.words;
        if (tool === 'psql' && flag === '-c' && database)
          await database
            .query(sql!)
            .catch((e: Error) => problems.push(`${step.where}: ${step.command.line}: ${e.message}`));
      } else if (step.args[0] === 'sandbox') {
        const port = step.args[step.args.indexOf('--port') + 1];
        if (step.args.includes('--port')) pageUrl = `http://127.0.0.1:${port}`;
        if (first && step.shown) {
          // What the page's own line prints (its clock unpinned, as a newcomer runs it), then the walk's pinned one.
          const asWritten = runCli(sandboxArgs(step.args, false), {}, { cwd: dir }).child;
          running.push(asWritten);
          const printed = await sandboxReady(asWritten);
          const url = /^base_url: (\S+)$/m.exec(printed)![1]!;
          for (const mismatch of outputMismatches(actualUrls(step.shown.body, url), printed))
            problems.push(`${step.where}: ${step.command.line}: ${mismatch} (${step.shown.where})`);
          await stop(asWritten);
        }
        const pinned = runCli(sandboxArgs(step.args, true), {}, { cwd: dir }).child;
        running.push(pinned);
        baseUrl = /^base_url: (\S+)$/m.exec(await sandboxReady(pinned))![1]!;
        await writeFile(path.join(dir, 'aivis.yaml'), actualUrls(config, baseUrl));
      } else {
        // Lines without a config do the same whatever the destination: the first walk runs them.
        if (!first && !step.args.includes('--config')) continue;
        if (step.args.includes('--config') && baseUrl === undefined) {
          problems.push(`${step.where}: ${step.command.line}: runs before the page starts the sandbox`);
          continue;
        }
        const result = await runCli(step.args, { ...env, ...step.command.env }, { cwd: dir }).done;
        if (result.code !== 0) {
          problems.push(
            `${step.where}: ${step.command.line}: exit ${result.code}: ${result.stderr.trim().split('\n').at(-1)}`,
          );
          continue;
        }
        if (!first || !step.shown) continue;
        for (const mismatch of outputMismatches(actualUrls(step.shown.body, baseUrl ?? pageUrl), result.stdout))
          problems.push(`${step.where}: ${step.command.line}: ${mismatch} (${step.shown.where})`);
      }
    }
  } finally {
    await Promise.all(running.map(stop));
    await database?.end();
    await rm(dir, { recursive: true, force: true });
  }
  return problems;
}

const PAGES = ['README.md', 'docs/getting-started.md'];
const page = (name: string) => docFiles().find((f) => f.name === name)!;

describe.concurrent(`README.md and docs/getting-started.md walked as a newcomer, sandbox pinned at ${CLOCK}`, () => {
  let admin: pg.Client;
  const databases: string[] = [];

  /** A fresh database of the test server, so the page's schema `aivis` meets no other test's. */
  async function freshDatabase(): Promise<string> {
    const name = `aivis_walk_${databases.length}_${process.pid}_${Date.now()}`;
    databases.push(name);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${name}`;
    return url.href;
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
  });

  afterAll(async () => {
    for (const name of databases) await admin?.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin?.end();
  });

  for (const name of PAGES) {
    it(`${name}: its other lines name what exists and only tools the page names; no duckdb command`, () => {
      expect(textProblems(page(name))).toEqual([]);
    });

    it(`${name} into DuckDB: every aivis line and sql block runs, printing what the page shows`, async () => {
      expect(await walk(page(name), { destination: 'duckdb', first: true })).toEqual([]);
    }, 120_000);

    it(`${name} into Postgres: every aivis line and sql block runs, psql's SQL too`, async () => {
      expect(
        await walk(page(name), { destination: 'postgres', databaseUrl: await freshDatabase(), first: false }),
      ).toEqual([]);
    }, 120_000);
  }

  it('compares the output the pages show for these lines: the page lines this test depends on', () => {
    const shownFor = PAGES.flatMap((name) =>
      stepsOf(page(name)).flatMap((s) => (s.kind === 'aivis' && s.shown ? [`${name}: ${s.command.line}`] : [])),
    );
    expect(shownFor).toEqual([
      'README.md: npx aivis --help',
      'docs/getting-started.md: npx aivis sandbox --seed 1 --port 8080',
      'docs/getting-started.md: npx aivis check --config aivis.yaml',
      'docs/getting-started.md: npx aivis sync --config aivis.yaml',
    ]);
  });

  it('matches <...> as any text and a line of only <...> or ... as any lines; names each shown line not printed', () => {
    const printed = 'aivis sync run_1: succeeded in 0.9s\n  websites  5\n  analytics  32\n  mentions  567\n';
    expect(outputMismatches('aivis sync <...>: succeeded in <...>s\n...\n  mentions  567', printed)).toEqual([]);
    expect(outputMismatches('<...>\n  analytics  32\n<...>', printed)).toEqual([]);
    expect(
      outputMismatches('aivis sync <...>: succeeded\n  websites  5\n  analytics  30\n  mentions  567', printed),
    ).toEqual([
      'line 1 of the shown output, "aivis sync <...>: succeeded", is printed as "aivis sync run_1: succeeded in 0.9s"',
      'line 3 of the shown output, "  analytics  30", is printed as "  analytics  32"',
    ]);
    expect(outputMismatches('aivis sync <...>\n  websites  5', printed)).toEqual([
      'it prints more than the page shows, from "  analytics  32"',
    ]);
  });

  it('fails on a number the page shows wrong and on a duckdb line', async () => {
    const original = page('docs/getting-started.md');
    // From its sandbox to its sync's output: the lines around them would only add run time.
    const planted: DocFile = {
      name: 'planted.md',
      text: original.text
        .slice(original.text.indexOf('## 3. Start the sandbox'), original.text.indexOf('## 6. First queries'))
        .replace(/^( {2}analytics +)\d+( +0)$/m, '$1999$2')
        .replace(
          'npx aivis sync --config aivis.yaml\n',
          "npx aivis sync --config aivis.yaml\nduckdb sandbox.duckdb 'select 1'\n",
        ),
    };
    expect(planted.text).not.toBe(original.text);
    expect(textProblems(planted)).toEqual([
      expect.stringMatching(/^planted\.md:\d+: duckdb sandbox\.duckdb 'select 1': the duckdb CLI is not installed/),
    ]);
    const problems = await walk(planted, { destination: 'duckdb', first: true });
    expect(problems).toEqual([
      expect.stringMatching(
        /^planted\.md:\d+: npx aivis sync --config aivis\.yaml: line \d+ of the shown output, " {2}analytics +999 +0", is printed as " {2}analytics +\d+ +0"/,
      ),
    ]);
  }, 120_000);
});
