/** Upserts each terminal receipt into `prompt_imports` / `prompt_import_items` as it arrives. */
import type { Destination } from '../destination/destination.ts';
import { flushParts } from '../destination/flush-parts.ts';
import { PROMPT_IMPORT_TABLES } from '../tables/prompt-imports.ts';
import type { ReceiptSink } from './import-run.ts';
import { receiptRows } from './receipt-rows.ts';

export async function destinationSink(
  destination: Destination,
  context: { file: string; classificationMode: string; runId: string; workspace: string; now: () => Date },
): Promise<ReceiptSink> {
  await destination.ensureTables(PROMPT_IMPORT_TABLES);
  return {
    async write(outcome) {
      if (!outcome.receipt) return;
      const tables = receiptRows(
        { ...outcome, receipt: outcome.receipt },
        {
          file: context.file,
          classificationMode: context.classificationMode,
          runId: context.runId,
          workspace: context.workspace,
          syncedAt: context.now().toISOString(),
        },
      );
      await destination.commit(flushParts(tables));
    },
  };
}
