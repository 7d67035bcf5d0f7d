/**
 * `aivis import-prompts --website ID (--file F | --from-table T | --from-query SQL) [--all]`:
 * checks the whole input, then imports it in partitions (docs/prompt-import.md). A file keeps
 * a journal; a table or query of the destination sends only the rows whose text the
 * destination's receipts do not hold yet (all of them with `--all`). Exit 0 when every
 * partition succeeded, 2 for bad input or flags (nothing sent), 1 when the service refused or
 * an operation failed for good.
 */
import path from 'node:path';
import type { ClassificationMode, PromptImportDefaults } from '../../../schemas/prompt-import.ts';
import type { ApiClient } from '../../client/api-client.ts';
import { type Clock, systemClock } from '../../client/clock.ts';
import { type LoadedConfig, loadConfig } from '../../config/load-config.ts';
import type { Workspace } from '../../config/workspaces.ts';
import type { Destination } from '../../destination/destination.ts';
import { ConfigError, ExitCode } from '../../errors.ts';
import { defaultJournalPath, type ImportOptions } from '../../import/import-options.ts';
import { renderReport } from '../../import/import-report.ts';
import type { ImportSource } from '../../import/import-source.ts';
import { importPromptsRun } from '../../import/prompt-import.ts';
import { receiptsGoToDestination } from '../../import/receipt-destination.ts';
import { sourceLabel } from '../../import/warehouse-items.ts';
import { inertJson } from '../../log/inert-text.ts';
import { createLogger, type Logger } from '../../log/logger.ts';
import { redact } from '../../log/redact.ts';
import { parseList } from '../cli-arguments.ts';
import { createClient } from '../command-resources.ts';
import { openQueryRole } from '../destination-factory.ts';
import { packageVersion } from '../package-version.ts';
import { listenForStop } from '../stop-signal.ts';
import { withDestination } from '../with-destination.ts';
import { parseWorkspaceFlags, selectWorkspaces, type WorkspaceSelection } from '../workspace-selection.ts';
import { defineCommand } from './cli-command.ts';

export interface ImportPromptsArgs {
  config?: string;
  workspace?: string | string[];
  website: string;
  file?: string;
  'from-table'?: string;
  'from-query'?: string;
  all?: boolean;
  'validate-only'?: boolean;
  classification?: ClassificationMode;
  'defaults-tags'?: string;
  'defaults-language'?: string;
  'defaults-intent'?: string;
  journal?: string;
  json?: boolean;
}

/** Where the prompts come from: exactly one of `--file`, `--from-table`, `--from-query`. */
function importSource(argv: ImportPromptsArgs): ImportSource {
  const given = (['file', 'from-table', 'from-query'] as const).filter((flag) => (argv[flag] ?? '') !== '');
  if (given.length !== 1) {
    throw new ConfigError(
      given.length === 0
        ? '--file, --from-table or --from-query is required (aivis import-prompts --website ID --file F)'
        : `give one input, not ${given.map((flag) => `--${flag}`).join(' and ')}`,
    );
  }
  const flag = given[0]!;
  const value = argv[flag];
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`--${flag} needs a value`);
  if (flag === 'file') {
    if (argv.all)
      throw new ConfigError('--all is for --from-table and --from-query: a --file import is kept by its journal');
    return { file: value };
  }
  return flag === 'from-table' ? { table: value.trim() } : { query: value };
}

function importOptions(argv: ImportPromptsArgs, source: ImportSource): ImportOptions {
  if (typeof argv.website !== 'string' || argv.website === '')
    throw new ConfigError('--website is required (aivis import-prompts --website ID --file F)');
  if (!/^web_[A-Za-z0-9_-]+$/.test(argv.website) || argv.website.length > 128) {
    throw new ConfigError(`--website "${argv.website}" is not a website id (they look like web_123)`);
  }
  const defaults: PromptImportDefaults = {};
  const tags = parseList(argv['defaults-tags'], '--defaults-tags');
  if (tags) defaults.tags = tags;
  if (argv['defaults-language'] !== undefined) defaults.language = argv['defaults-language'];
  if (argv['defaults-intent'] !== undefined)
    defaults.search_intent = argv['defaults-intent'] as PromptImportDefaults['search_intent'];
  const validateOnly = argv['validate-only'] ?? false;
  const common = { websiteId: argv.website, validateOnly, mode: argv.classification ?? 'auto', defaults };
  if (!('file' in source)) {
    // The destination's receipts are the memory of a warehouse source; a journal only when asked for.
    return {
      ...common,
      file: sourceLabel(source),
      all: argv.all ?? false,
      ...(argv.journal ? { journal: path.resolve(argv.journal) } : {}),
    };
  }
  const file = path.resolve(source.file);
  return {
    ...common,
    file,
    journal: path.resolve(argv.journal ?? defaultJournalPath(file, argv.website, validateOnly)),
  };
}

/** The one workspace whose key imports: a website belongs to one workspace, so a config naming several needs --workspace. */
function importingWorkspace(loaded: LoadedConfig, selection: WorkspaceSelection): Workspace {
  const [workspace, ...others] = selectWorkspaces(loaded.workspaces, selection);
  if (workspace && others.length === 0) return workspace;
  const names = [workspace, ...others].map((w) => w?.name).join(', ');
  throw new ConfigError(
    selection.names
      ? `--workspace names ${others.length + 1} workspaces (${names}): import-prompts imports into one, the workspace of --website`
      : `${loaded.path} names ${others.length + 1} workspaces (${names}): name the one that owns --website with --workspace`,
  );
}

/** The command's work, with the clock injectable so tests run polls on virtual time. */
export async function importPrompts(
  argv: ImportPromptsArgs,
  deps: { clock?: Clock; write?: (text: string) => void; logger?: Logger } = {},
): Promise<ExitCode> {
  const clock = deps.clock ?? systemClock;
  const write = deps.write ?? ((text: string) => process.stdout.write(text));
  const source = importSource(argv);
  const baseOptions = importOptions(argv, source);
  const loaded = await loadConfig(argv.config);
  const { config } = loaded;
  const workspace = importingWorkspace(loaded, parseWorkspaceFlags({ workspace: argv.workspace }));
  const logger = deps.logger ?? createLogger();
  // The journal already holds every key and receipt, so a stop only has to end the POST or
  // poll in flight; the next run replays or polls from the journal.
  const stop = listenForStop((signal) =>
    baseOptions.journal
      ? `stopped by ${signal}: the journal ${baseOptions.journal} records every partition sent; run the same command again to resume (nothing is imported twice)`
      : `stopped by ${signal}: the destination's receipts record every partition that finished; run the same command again to send the rest`,
  );
  let client: ApiClient | undefined;
  try {
    client = createClient(workspace, logger, { clock, signal: stop.signal });
    const hasDestination = receiptsGoToDestination(loaded, source);
    const http = client;
    // With a destination, the receipts go there: open for the import, closed after it however it ends.
    const importInto = async (destination?: Destination): Promise<ExitCode> => {
      const report = await importPromptsRun({
        loaded,
        workspace,
        source,
        options: baseOptions,
        http,
        clock,
        logger,
        signal: stop.signal,
        ...(destination ? { destination } : {}),
        openQueryRole: () => openQueryRole(config.destination, { logger, besideDestination: true }),
        version: packageVersion(),
      });
      write(`${redact(argv.json ? inertJson(JSON.stringify(report, null, 2)) : renderReport(report))}\n`);
      return report.status === 'succeeded' ? ExitCode.Success : ExitCode.Failure;
    };
    return hasDestination ? await withDestination(config.destination, { logger }, importInto) : await importInto();
  } finally {
    stop.dispose();
    await client?.close();
  }
}

export const importPromptsCommand = defineCommand({
  command: 'import-prompts',
  describe:
    'Import prompts from a CSV or JSONL file, or a table or query of the destination, into a website (append-only, in atomic partitions)',
  builder: (yargs) =>
    yargs
      .option('website', { type: 'string', demandOption: true, describe: 'Website id, e.g. web_123' })
      .option('workspace', {
        type: 'string',
        describe: "The config's workspace that owns the website (needed when the config names several)",
      })
      .option('file', {
        type: 'string',
        describe: 'Input file: .csv (header row) or .jsonl (one object per line)',
      })
      .option('from-table', {
        type: 'string',
        describe: 'Import the rows of this table or view of the destination (in its schema unless qualified)',
      })
      .option('from-query', {
        type: 'string',
        describe: 'Import the rows of this read-only SELECT, run on the destination',
      })
      .option('all', {
        type: 'boolean',
        default: false,
        describe:
          'With --from-table/--from-query: send every row, not only the new ones (the service skips duplicates)',
      })
      .option('validate-only', {
        type: 'boolean',
        default: false,
        describe: 'Validate on the service without creating prompts',
      })
      .option('classification', {
        choices: ['auto', 'provided_only'] as const,
        default: 'auto' as const,
        describe: 'auto: derive missing fields; provided_only: never classify',
      })
      .option('defaults-tags', { type: 'string', describe: 'Default tags, comma-separated (item tags replace them)' })
      .option('defaults-language', { type: 'string', describe: 'Default language, ISO 639-1 (e.g. en)' })
      .option('defaults-intent', {
        type: 'string',
        describe: 'Default search intent: informational, commercial or transactional',
      })
      .option('journal', {
        type: 'string',
        describe: 'Journal file (default: beside the input file; none for --from-table/--from-query)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the summary as JSON' }),
  handler: async (argv) => {
    return importPrompts(argv);
  },
});
