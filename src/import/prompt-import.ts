/**
 * One `aivis import-prompts` run around the partition loop (`runImport`), once the command has
 * parsed its flags and opened the API client and, when the config names one, the destination
 * (docs/architecture.md#prompt-import): the receipt sink into that destination, a table or query
 * source read through the destination's read-only query role (only the rows whose text its
 * receipts do not hold yet, unless `all`), and the run's lineage. A validation creates nothing,
 * so only an import is a run with lineage.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../client/clock.ts';
import type { LoadedConfig } from '../config/load-config.ts';
import type { Workspace } from '../config/workspaces.ts';
import type { Destination } from '../destination/destination.ts';
import type { QueryRole } from '../destination/read-only-query.ts';
import { promptLibraryDataset } from '../lineage/dataset-names.ts';
import { startLineageRun, withLineage } from '../lineage/lineage-run.ts';
import { lineageSettings } from '../lineage/lineage-settings.ts';
import type { Logger } from '../log/logger.ts';
import { destinationSink } from './destination-sink.ts';
import { importFailure, inputDatasets } from './import-lineage.ts';
import type { ImportOptions } from './import-options.ts';
import type { ImportReport } from './import-report.ts';
import { runImport } from './import-run.ts';
import type { ImportSource } from './import-source.ts';
import { readKnownPrompts } from './known-prompts.ts';
import type { KnownDigests } from './prompt-digest.ts';
import type { ImportHttp } from './receipt-client.ts';
import { openWarehouseInput } from './warehouse-items.ts';

export interface PromptImportInput {
  readonly loaded: LoadedConfig;
  /** The workspace whose key imports (its name goes on the receipt rows). */
  readonly workspace: Workspace;
  readonly source: ImportSource;
  readonly options: ImportOptions;
  readonly http: ImportHttp;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Stops the POST or poll in flight (the journal or the receipts say where to resume). */
  readonly signal: AbortSignal;
  /** Where the receipts go: the configured destination, open; none when the config names none. */
  readonly destination?: Destination;
  /** Opens the configured destination's read-only query role, for a table or query source. */
  openQueryRole(): Promise<QueryRole>;
  /** The version lineage events name. */
  readonly version: string;
}

/** Imports the prompts and returns the report; the query role it opened is closed however it ends. */
export async function importPromptsRun(input: PromptImportInput): Promise<ImportReport> {
  const { loaded, workspace, source, clock, logger } = input;
  let role: QueryRole | undefined;
  try {
    // One id for the run: its receipt rows' run_id and its lineage runId.
    const runId = randomUUID();
    const sink =
      input.destination &&
      (await destinationSink(input.destination, {
        file: input.options.file,
        classificationMode: input.options.mode,
        runId,
        workspace: workspace.name,
        now: () => new Date(clock.now()),
      }));
    let options = input.options;
    let known: KnownDigests | undefined;
    if (!('file' in source)) {
      role = await input.openQueryRole();
      options = { ...options, warehouse: await openWarehouseInput(role, source) };
      if (!options.all) known = await readKnownPrompts(role, options.websiteId);
    }
    const library = { dataset: promptLibraryDataset(workspace.source.base_url, options.websiteId) };
    const lineage = startLineageRun({
      settings: options.validateOnly ? undefined : lineageSettings(loaded),
      logger,
      version: input.version,
      runId,
      jobName: `${workspace.name}.import-prompts`,
      inputs: inputDatasets(loaded.config.destination, source, options),
      outputs: [library],
    });
    return await withLineage(
      lineage,
      input.signal,
      [library],
      () =>
        runImport(options, {
          http: input.http,
          clock,
          logger,
          runSalt: runId,
          ...(sink ? { sink } : {}),
          ...(known ? { known } : {}),
        }),
      (done) => ({
        eventType: done.status === 'succeeded' ? 'COMPLETE' : 'FAIL',
        outputs: [{ ...library, rowCount: done.totals.created }],
        ...(done.status === 'succeeded' ? {} : { errorMessage: importFailure(done) }),
      }),
    );
  } finally {
    await role?.close();
  }
}
