import { createHash } from 'node:crypto';
import type { Row } from '../destination/table-spec.ts';
import { storableJson } from '../json/storable-json.ts';

/**
 * A `_aivis_rejected` row. Its id hashes workspace, stream, scope and the record (or `identity`, when the
 * raw text carries something that changes per request, like a response's `request_id`), so a
 * replayed page or a re-read snapshot upserts the same rejection instead of adding another.
 * A record too deep for a warehouse's JSON is kept as a JSON string of its text (`storable-json.ts`).
 */
export function rejectedRow(input: {
  stream: string;
  scope: string;
  error: string;
  raw: unknown;
  identity?: unknown;
  runId: string;
  syncedAt: string;
  workspace: string;
}): Row {
  const rawText = storableJson(input.raw);
  const identityText = input.identity === undefined ? rawText : storableJson(input.identity);
  const id = createHash('sha256')
    .update(`${input.workspace}\n${input.stream}\n${input.scope}\n${identityText}`)
    .digest('hex')
    .slice(0, 32);
  return {
    id,
    stream: input.stream,
    scope: input.scope,
    error: input.error,
    _raw: rawText,
    _run_id: input.runId,
    _synced_at: input.syncedAt,
    _workspace: input.workspace,
  };
}
