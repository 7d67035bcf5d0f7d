/**
 * `aivis airbyte spec | check | discover | read`: aivis as an Airbyte source
 * (docs/protocols.md#airbyte). The protocol's conventions, not section 7's exit codes: stdout
 * holds Airbyte messages only, bad input is an error TRACE then exit 1, `check` exits 0 either way.
 */
import { AIRBYTE_MODES, runAirbyteMode } from '../airbyte-modes.ts';
import { defineCommand } from './cli-command.ts';

export const airbyteCommand = defineCommand({
  command: 'airbyte <mode>',
  describe: 'Run as an Airbyte source: spec, check, discover or read (JSON config)',
  builder: (yargs) =>
    yargs
      .positional('mode', { choices: AIRBYTE_MODES, demandOption: true, describe: 'The Airbyte command' })
      .option('catalog', { type: 'string', describe: 'read: the configured catalog (JSON)' })
      .option('state', { type: 'string', describe: 'read: the state messages of the last read (a JSON array)' }),
  handler: async (argv) => (await runAirbyteMode(argv.mode, argv)) as 0 | 1,
});
