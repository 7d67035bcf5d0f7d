/**
 * The latest snapshot of one website (a `snapshot` stream: analytics). A 404 means "tracked,
 * not yet measured" (spec 3.5): no row and no error. An invalid snapshot, or one nested too
 * deep, is rejected whole, with its reason. A snapshot loaded (or a 404) is complete through
 * the moment the website's sync began (`context.syncedAt`, before the request): its
 * `_aivis_completeness` row travels with its rows.
 */
import type { z } from 'zod';
import { formatIssues } from '../../schemas/format-issues.ts';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import { TOO_DEEP } from '../client/record-result.ts';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../json/nesting-depth.ts';
import type { TableRows } from '../destination/destination.ts';
import { RecordRejection, type RowContext, type SnapshotStream } from '../streams/stream.ts';
import { rejectedTable } from '../tables/index.ts';
import { completenessPart, readWholeRow } from '../trust/completeness.ts';
import { rejectedRow } from './rejected-rows.ts';
import type { RunCounters } from './run-counters.ts';
import type { StreamName } from '../streams/registry.ts';

export async function syncSnapshot<Data, Meta, Options extends z.ZodType>(input: {
  client: ApiClient;
  counters: RunCounters;
  stream: SnapshotStream<string, Data, Meta, Options>;
  options: z.output<Options>;
  context: RowContext;
  /** What the run's records are checked against (docs/served-contract.md#validation). */
  validation: ContractValidation;
}): Promise<TableRows[]> {
  const { client, stream, context } = input;
  const counts = input.counters.stream(stream.name);
  let body: unknown;
  try {
    const query = stream.query(input.options);
    body = (await client.request({ method: 'GET', path: stream.path(context.websiteId), query })).body;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return completeness(stream.name, context);
    throw error;
  }
  counts.pages++;
  const envelope = (body ?? {}) as { data?: unknown; meta?: unknown };
  const name = stream.name as StreamName;
  const data = input.validation.schema(name, 'record', stream.dataSchema).safeParse(envelope.data);
  const meta = input.validation.schema(name, 'meta', stream.metaSchema).safeParse(envelope.meta);
  let reason =
    nestsDeeperThan(envelope.data, MAX_RECORD_DEPTH) || nestsDeeperThan(envelope.meta, MAX_RECORD_DEPTH)
      ? TOO_DEEP
      : !data.success
        ? formatIssues(data.error)
        : !meta.success
          ? `meta: ${formatIssues(meta.error)}`
          : undefined;
  let tables: TableRows[] = [];
  if (reason === undefined && data.success && meta.success) {
    try {
      tables = stream.toRows(data.data, meta.data, envelope as { data: unknown }, context);
    } catch (error) {
      if (!(error instanceof RecordRejection)) throw error;
      reason = error.message;
    }
  }
  if (reason !== undefined) {
    counts.rejected++;
    // The snapshot without its request id: the same bad snapshot read again is the same rejection.
    const { request_id: _requestId, ...meta } = (envelope.meta ?? {}) as Record<string, unknown>;
    const identity = { data: envelope.data, meta };
    const row = rejectedRow({
      stream: stream.name,
      scope: context.websiteId,
      error: reason,
      raw: body,
      identity,
      runId: context.runId,
      syncedAt: context.syncedAt,
      workspace: context.workspace,
    });
    return [{ table: rejectedTable, rows: [row] }];
  }
  counts.rows += tables.reduce((sum, t) => sum + t.rows.length, 0);
  return [...tables, ...completeness(stream.name, context)];
}

function completeness(stream: string, context: RowContext): TableRows[] {
  return completenessPart(readWholeRow(stream, context.websiteId, context.syncedAt, context));
}
