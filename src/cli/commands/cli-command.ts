/**
 * A CLI verb: what yargs needs to parse it, and a handler whose result is the process's exit
 * code. The code is returned to `main` rather than written onto the parsed arguments; a handler
 * that throws an `AivisError` exits with the error's code instead.
 */
import type { ArgumentsCamelCase, CommandModule } from 'yargs';
import type { ExitCode } from '../../errors.ts';

export interface CliCommand<Args> extends Omit<CommandModule<object, Args>, 'handler'> {
  handler(argv: ArgumentsCamelCase<Args>): Promise<ExitCode>;
}
