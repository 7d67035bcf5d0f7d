/**
 * Every `aivis ...` line of a `sh` or `console` block in README.md and docs/ parses with the
 * real CLI grammar (`cliParser` of src/cli/main.ts): an unknown verb or flag, a missing
 * required flag or a switch given a value fails here, not in a user's terminal. And docs/cli.md
 * lists every command with every flag its `--help` shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { commands } from '../../src/cli/commands/index.ts';
import { cliParser } from '../../src/cli/main.ts';
import { aivisCommands, type DocFile, docFiles, fences } from './markdown.ts';

/** Why each documented command line does not parse (empty when all do). */
async function commandProblems(files: readonly DocFile[]): Promise<string[]> {
  const problems: string[] = [];
  // --help and --version print through console.log; the parse is what is checked.
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    for (const fence of files.flatMap(fences)) {
      for (const { line, args } of aivisCommands(fence)) {
        const ran: string[] = [];
        // yargs throws a usage error synchronously from parseAsync, and a handler's asynchronously.
        const parse = async () =>
          cliParser(args, async (command) => void ran.push(String(command.command))).parseAsync();
        const error = await parse().then(
          () => undefined,
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        );
        if (error !== undefined) problems.push(`${fence.where}: ${line}: ${error.split('\n')[0]}`);
        else if (ran.length === 0 && !args.includes('--help') && !args.includes('--version'))
          problems.push(`${fence.where}: ${line}: names no command`);
      }
    }
  } finally {
    quiet.mockRestore();
  }
  return problems;
}

describe('aivis command lines in the docs', () => {
  it('there are some in README.md and docs/, each in a sh or console block', () => {
    const lines = docFiles().flatMap(fences).flatMap(aivisCommands);
    expect(lines.length).toBeGreaterThan(20);
  });

  it('every one parses with the real CLI grammar', async () => {
    expect(await commandProblems(docFiles())).toEqual([]);
  });

  it('fails on an unknown verb, an unknown flag, a missing required flag and a switch with a value', async () => {
    const broken: DocFile = {
      name: 'broken.md',
      text: [
        '```sh',
        'aivis sync --config aivis.yaml     # fine',
        'aivis synk --config aivis.yaml',
        'npx aivis sync --websits web_1',
        'aivis backfill --since 2026-01-01T00:00:00Z',
        'AIVIS_CONFIG=a.yaml aivis sync --full-refresh=maybe',
        'aivis verify --stream mentions \\',
        '  --since 2026-01-01T00:00:00Z --repare',
        '```',
        '```text',
        'aivis nonsense (not a shell block: not checked)',
        '```',
      ].join('\n'),
    };
    const problems = await commandProblems([broken]);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(
      /^broken\.md:1: aivis synk --config aivis\.yaml: unknown command "synk": did you mean sync\?/,
    );
    expect(problems[1]).toMatch(/--websits web_1: unknown flag --websits: did you mean --websites\?/);
    expect(problems[2]).toMatch(/Missing required argument: streams/);
    expect(problems[3]).toMatch(/--full-refresh is a switch and takes no value \(got "maybe"\)/);
    expect(problems[4]).toMatch(/unknown flag --repare: did you mean --repair\?/);
  });

  it('docs/cli.md lists every command and every flag of it', async () => {
    const cli = docFiles().find((f) => f.name === 'docs/cli.md')!;
    expect(await undocumentedFlags(cli.text)).toEqual([]);
  });

  it('fails on a command or a flag docs/cli.md does not list', async () => {
    const partial = ['| command | what | flags |', '|---|---|---|', '| `sync` | syncs | `--streams` |'].join('\n');
    const missing = await undocumentedFlags(partial);
    expect(missing).toContain('sync: --websites');
    expect(missing).toContain('check: not listed');
    expect(missing).toContain('all commands: --config');
  });
});

/** The flags a help text lists, each by its first name (`--streams` of `--streams, --stream`). */
const flagsIn = (help: string): string[] => [...help.matchAll(/^ {2}(--[a-z][a-z-]*)/gm)].map((m) => m[1]!);

/** What `aivis <verb> --help` prints. */
async function helpOf(verb: string): Promise<string> {
  const printed: string[] = [];
  const capture = vi.spyOn(console, 'log').mockImplementation((...parts) => void printed.push(parts.join(' ')));
  try {
    await cliParser(verb === '--help' ? [verb] : [verb, '--help'], async () => {}).parseAsync();
  } finally {
    capture.mockRestore();
  }
  return printed.join('\n');
}

/** `verb: --flag` for each flag of each command that the cli.md text's rows for that verb leave out. */
async function undocumentedFlags(markdown: string): Promise<string[]> {
  // The options every verb has (`--config`, `--debug`, ...): listed once, anywhere on the page.
  const globals = flagsIn(await helpOf('--help'));
  const missing = globals
    .filter((flag) => !['--help', '--version'].includes(flag) && !markdown.includes(`\`${flag}`))
    .map((flag) => `all commands: ${flag}`);
  for (const command of commands) {
    const verb = String(command.command).split(' ')[0]!;
    const rows = markdown.split('\n').filter((line) => line.startsWith(`| \`${verb}`));
    if (rows.length === 0) {
      missing.push(`${verb}: not listed`);
      continue;
    }
    const flags = flagsIn(await helpOf(verb));
    for (const flag of flags.filter((f) => !globals.includes(f))) {
      if (!rows.some((row) => row.includes(`\`${flag}`))) missing.push(`${verb}: ${flag}`);
    }
  }
  return missing;
}
