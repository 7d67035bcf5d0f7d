/** Every CLI verb (docs/architecture.md#cli); one file per verb beside this one. */
import { backfillCommand } from './backfill.ts';
import { checkCommand } from './check.ts';
import type { CliCommand } from './cli-command.ts';
import { dbtSourcesCommand } from './dbt-sources.ts';
import { importPromptsCommand } from './import-prompts.ts';
import { queryCommand } from './query.ts';
import { sandboxCommand } from './sandbox.ts';
import { stateCommand } from './state.ts';
import { statusCommand } from './status.ts';
import { streamsCommand } from './streams.ts';
import { syncCommand } from './sync.ts';
import { verifyCommand } from './verify.ts';

export const commands: readonly CliCommand[] = [
  checkCommand,
  streamsCommand,
  syncCommand,
  backfillCommand,
  verifyCommand,
  stateCommand,
  statusCommand,
  sandboxCommand,
  importPromptsCommand,
  dbtSourcesCommand,
  queryCommand,
];
