#!/usr/bin/env node
/**
 * `aivis <command>`: parses the command line and maps every outcome to an exit code
 * (docs/architecture.md#cli): 0 success, 1 failure, 2 bad config or usage, 3 partial.
 */
import yargs, { type ArgumentsCamelCase, type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AivisError, ConfigError, ExitCode } from '../errors.ts';
import { terminalMessage } from '../log/inert-text.ts';
import { createLogger } from '../log/logger.ts';
import { redact } from '../log/redact.ts';
import { refuseSwitchValues } from './cli-arguments.ts';
import type { CliCommand } from './commands/cli-command.ts';
import { commands } from './commands/index.ts';
import { hasLingeringWork } from './lingering-work.ts';
import { packageVersion } from './package-version.ts';
import { type KnownNames, usageHint } from './usage-hint.ts';

/**
 * The command line's grammar: every verb and its flags, checked strictly (an unknown verb or
 * flag is a usage error). `run` gets the verb the line names with its parsed arguments; the
 * docs tests parse every documented `aivis ...` line through this with a `run` that does nothing.
 */
export function cliParser(argv: string[], run: (command: CliCommand, args: ArgumentsCamelCase) => Promise<void>): Argv {
  const parser = yargs(argv)
    .scriptName('aivis')
    // Flags are read by their written names (`--full-refresh`); no camelCase twins in messages.
    .parserConfiguration({ 'camel-case-expansion': false })
    .usage('$0 <command> [options]')
    .option('config', {
      type: 'string',
      describe: 'Path of the YAML config (default: $AIVIS_CONFIG)',
      default: process.env.AIVIS_CONFIG,
      defaultDescription: '$AIVIS_CONFIG',
    })
    .option('debug', {
      type: 'boolean',
      describe: 'On an unexpected error, print its stack trace too (or set AIVIS_DEBUG=1)',
    })
    .demandCommand(1, 'Name a command: aivis --help lists them.')
    .strict()
    .help()
    .version(packageVersion())
    .exitProcess(false)
    // Global, so it runs after the command's builder has declared the command's switches. yargs
    // passes its options (`boolean` lists the switches); its types only name the aliases.
    .check((_parsed, options) => {
      refuseSwitchValues(argv, (options as unknown as { boolean: string[] }).boolean);
      return true;
    }, true)
    // Throwing here (not just noting the message) keeps yargs from running the handler anyway.
    .fail((msg, err) => {
      throw err ?? new ConfigError(`${usageHint(msg, argv, knownNames(parser))}\nRun 'aivis --help' for usage.`);
    });
  for (const command of commands) {
    parser.command({ ...command, handler: (args) => run(command, args) });
  }
  return parser;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: ExitCode = ExitCode.Success;
  const parser = cliParser(argv, async (command, args) => {
    exitCode = await command.handler(args);
  });
  try {
    await parser.parseAsync();
    return exitCode;
  } catch (error) {
    return reportError(error, debugging(argv));
  }
}

interface ParsedOptions {
  key: Record<string, unknown>;
  choices: Record<string, string[]>;
}

/** The verbs, and the flags and choices of the command being parsed, for "did you mean". */
function knownNames(parser: Argv): KnownNames {
  // yargs has `getOptions()` at run time; its types leave it out.
  const { key, choices } = (parser as unknown as { getOptions(): ParsedOptions }).getOptions();
  const positionals = commands.flatMap((c) =>
    [...String(c.command).matchAll(/[<[](\w+)(?:\.\.)?[\]>]/g)].map((m) => m[1]),
  );
  return {
    flags: Object.keys(key).filter((name) => !positionals.includes(name)),
    choices,
    commands: commands.map((c) => String(c.command).split(' ')[0]!),
  };
}

/** `--debug` or `AIVIS_DEBUG=1`: the one way a stack trace reaches the user. */
function debugging(argv: readonly string[]): boolean {
  return argv.includes('--debug') || argv.includes('--debug=true') || process.env.AIVIS_DEBUG === '1';
}

/**
 * An error as the user reads it: its message, never its stack (that is for whoever fixes aivis,
 * behind --debug). An error that is not ours says so, and how to see where it came from.
 */
function reportError(error: unknown, debug: boolean): ExitCode {
  const stack = debug && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  if (error instanceof AivisError) return reportFailure(`${error.message}${stack}`, error.exitCode);
  const message = error instanceof Error ? error.message : String(error);
  const hint = debug ? stack : ' (run again with --debug, or AIVIS_DEBUG=1, to see where it came from)';
  return reportFailure(`unexpected error: ${message}${hint}`, ExitCode.Failure);
}

/**
 * The run's last word on stderr. Off a terminal it is one JSON log line like every other
 * (`{"level":"error","msg":...,"exit_code":2}`), so a message holding a server's text, newlines
 * and all, stays inside it; on a terminal it reads `aivis: <message>`, controls escaped.
 */
function reportFailure(message: string, exitCode: ExitCode): ExitCode {
  if (process.stderr.isTTY) process.stderr.write(`${terminalMessage(redact(`aivis: ${message}`))}\n`);
  else createLogger().error(message, { exit_code: exitCode });
  return exitCode;
}

/** Runs the command line as the process's one job: its exit code becomes the process's. */
export function run(argv: string[]): void {
  if (!process.stderr.isTTY) {
    // Node prints its own warnings (a dependency's deprecation, a listener leak) as plain
    // text; off a terminal they become log lines like everything else on stderr.
    const logger = createLogger();
    process.removeAllListeners('warning');
    process.on('warning', (warning) => logger.warn(warning.message, { warning: warning.name }));
  }
  // What escapes every handler (a library's stray callback) still ends as one message, exit 1.
  const escaped = (error: unknown) => {
    process.exitCode = reportError(error, debugging(argv));
    process.exit();
  };
  process.on('uncaughtException', escaped);
  process.on('unhandledRejection', escaped);
  main(argv).then((code) => {
    process.exitCode = code;
    // A destination SDK the command stopped waiting for may keep the event loop alive
    // (src/cli/lingering-work.ts): the output is written, so the process ends now.
    if (hasLingeringWork()) process.exit();
  });
}

// `node dist/src/cli/main.js` (the container image) and `node src/cli/main.ts` (tests); the
// installed `aivis` command comes through bin/aivis.cjs, which checks the Node version first.
const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) run(hideBin(process.argv));
