/**
 * `aivis airbyte spec | check | discover | read`: aivis as an Airbyte source
 * (docs/protocols.md#airbyte). The protocol's conventions, not section 7's exit codes: stdout
 * holds Airbyte messages only, bad input is an error TRACE then exit 1, `check` exits 0 either way.
 */
import { AIRBYTE_MODES, type AirbyteMode, runAirbyteMode } from '../../protocols/airbyte/airbyte-modes.ts';
import type { CliCommand } from './cli-command.ts';

interface AirbyteArgs {
  mode: AirbyteMode;
  config?: string;
  catalog?: string;
  state?: string;
}

export const airbyteCommand: CliCommand<AirbyteArgs> = {
  command: 'airbyte <mode>',
  describe: 'Run as an Airbyte source: spec, check, discover or read (JSON config)',
  builder: (yargs) =>
    yargs
      .positional('mode', { choices: AIRBYTE_MODES, describe: 'The Airbyte command' })
      .option('catalog', { type: 'string', describe: 'read: the configured catalog (JSON)' })
      .option('state', {
        type: 'string',
        describe: 'read: the state messages of the last read (a JSON array)',
      }) as never,
  handler: async (argv) => runAirbyteMode(argv.mode, argv) as never,
};
