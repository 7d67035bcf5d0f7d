/**
 * A CLI verb: what yargs needs to parse it, and a handler whose result is the process's exit
 * code. The code is returned to `main` rather than written onto the parsed arguments; a handler
 * that throws an `AivisError` exits with the error's code instead.
 */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { ExitCode } from '../../errors.ts';

/** The options every verb has: `main` declares them on the parser, before any verb's own. */
export interface GlobalArgs {
  readonly config: string | undefined;
  readonly debug: boolean | undefined;
}

/** A verb whose arguments are what its builder declares: `Args` follows from the options. */
export interface CliCommand<Args = unknown> {
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: Argv<GlobalArgs>) => Argv<Args>;
  // A method, so a list of verbs can hold each with its own `Args`.
  handler(argv: ArgumentsCamelCase<Args>): Promise<ExitCode>;
}

/** A verb, its argument type inferred from its builder's options. */
export function defineCommand<Args>(command: CliCommand<Args>): CliCommand<Args> {
  return command;
}
