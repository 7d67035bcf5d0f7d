/**
 * The latest snapshot of one website (a `snapshot` stream: analytics). A 404 means "tracked,
 * not yet measured" (spec 3.5): no row and no error. A snapshot the client finds invalid, or
 * nested too deep (`validateSnapshot`), is rejected whole, with its reason. A snapshot loaded
 * (or a 404) is complete through the moment the website's read began (`context.syncedAt`,
 * before the request): its `_aivis_completeness` row travels with its rows.
 */
import type { z } from 'zod';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import { validateSnapshot } from '../client/record-result.ts';
import type { TableRows } from '../destination/destination.ts';
import { RecordRejection, type RowContext, type SnapshotStream } from '../streams/stream.ts';
import { rejectedTable } from '../tables/index.ts';
import { completenessPart, readWholeRow } from '../trust/completeness.ts';
import type { FeedObserver } from './feed-observer.ts';
import { rejectedRow } from './rejected-rows.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import type { StreamName } from '../streams/registry.ts';

export async function readSnapshot<Data, Meta, Options extends z.ZodType>(input: {
  client: ApiClient;
  observer: Pick<FeedObserver, 'pageRead'>;
  stream: SnapshotStream<string, Data, Meta, Options>;
  options: z.output<Options>;
  context: RowContext;
  /** What the run's records are checked against (docs/served-contract.md#validation). */
  validation: ContractValidation;
}): Promise<TableRows[]> {
  const { client, stream, context } = input;
  let body: unknown;
  try {
    const query = stream.query(input.options);
    body = (await client.request({ method: 'GET', path: stream.path(context.websiteId), query })).body;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return completeness(stream.name, context);
    throw error;
  }
  const envelope = (body ?? {}) as { data?: unknown; meta?: unknown };
  const name = stream.name as StreamName;
  const snapshot = validateSnapshot(
    {
      dataSchema: input.validation.schema(name, 'record', stream.dataSchema),
      metaSchema: input.validation.schema(name, 'meta', stream.metaSchema),
    },
    envelope,
  );
  let reason = snapshot.ok ? undefined : snapshot.error;
  let tables: TableRows[] = [];
  if (snapshot.ok) {
    try {
      tables = stream.toRows(snapshot.value.data, snapshot.value.meta, envelope as { data: unknown }, context);
    } catch (error) {
      if (!(error instanceof RecordRejection)) throw error;
      reason = error.message;
    }
  }
  if (reason !== undefined) {
    input.observer.pageRead(stream.name, { rows: 0, rejected: 1 });
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
  input.observer.pageRead(stream.name, { rows: tables.reduce((sum, t) => sum + t.rows.length, 0), rejected: 0 });
  return [...tables, ...completeness(stream.name, context)];
}

function completeness(stream: string, context: RowContext): TableRows[] {
  return completenessPart(readWholeRow(stream, context.websiteId, context.syncedAt, context));
}
