/**
 * `aivis query [--format table|csv|json] SQL` (docs/cli.md#query): runs one read-only statement
 * on the configured destination and prints its rows. The statement passes the read-only gate
 * (src/destination/read-only-query.ts) before anything runs; the API key is not needed.
 */
import { loadConfig } from '../../config/load-config.ts';
import { assertReadOnlyStatement } from '../../destination/read-only-query.ts';
import { ConfigError, ExitCode } from '../../errors.ts';
import { createLogger } from '../../log/logger.ts';
import { openQueryRole } from '../destination-factory.ts';
import { QUERY_FORMATS, writeQueryResult } from '../query-output.ts';
import { defineCommand } from './cli-command.ts';

/** Rows asked of the engine at a time: a page is what the process holds while it prints. */
const PAGE_ROWS = 1000;

export const queryCommand = defineCommand({
  command: 'query [sql..]',
  describe: 'Run one read-only statement (SELECT) on the configured destination and print the rows',
  builder: (yargs) =>
    yargs
      .positional('sql', {
        type: 'string',
        array: true,
        default: undefined,
        describe: 'One read-only statement, in quotes',
      })
      .option('format', {
        choices: QUERY_FORMATS,
        describe: 'table, csv or json (default: table on a terminal, csv otherwise)',
      }),
  handler: async (argv) => {
    const words = (argv.sql ?? []).filter((word) => word !== undefined).map(String);
    if (words.length === 0) {
      throw new ConfigError(
        'aivis query needs the statement to run, in quotes: aivis query --config aivis.yaml "SELECT * FROM websites"',
      );
    }
    if (words.length > 1) {
      throw new ConfigError(
        `aivis query takes the statement as one argument, and got ${words.length} words: ` +
          `put it in quotes, e.g. aivis query --config aivis.yaml "${words.join(' ')}"`,
      );
    }
    // Reads the destination only: the API key is not needed, so not read.
    const { config } = await loadConfig(argv.config, process.env, createLogger(), 'none');
    const format = argv.format ?? (process.stdout.isTTY ? 'table' : 'csv');
    // A reader that stops early (`| head`) has what it wanted: end quietly, nothing to report.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(ExitCode.Success);
    });
    const role = await openQueryRole(config.destination, { logger: createLogger({ level: 'warn' }) });
    try {
      const statement = await assertReadOnlyStatement(words[0] ?? '', role, 'aivis query');
      await writeQueryResult(await role.run(statement, PAGE_ROWS), format, process.stdout);
    } finally {
      await role.close();
    }
    return ExitCode.Success;
  },
});
