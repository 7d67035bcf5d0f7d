/**
 * Airbyte protocol v0 messages (docs/protocols.md#airbyte), one JSON line each on stdout.
 * Every line a mode prints is built here; tests validate each against the official schema.
 */
import { jsonLine } from '../../log/inert-text.ts';
import { redact } from '../../log/redact.ts';
import type { FailureType } from '../protocol-read.ts';

export type StreamStatus = 'STARTED' | 'RUNNING' | 'COMPLETE' | 'INCOMPLETE';

/**
 * A message as its JSON line (controls, line separators and bidi controls escaped: one line
 * per message); text the server sent (in an error) passes through `redact`.
 */
function line(message: Record<string, unknown>): string {
  return redact(jsonLine(message));
}

export function recordLine(stream: string, data: string, emittedAt: number): string {
  // `data` is a row's JSON (row-json.ts), already exact: spliced in, never parsed again or redacted
  // (a record is the API's data, and a key inside one would have been refused long before).
  return `{"type":"RECORD","record":{"stream":${jsonLine(stream)},"data":${data},"emitted_at":${emittedAt}}}`;
}

export function streamStateLine(stream: string, value: unknown): string {
  return line({
    type: 'STATE',
    state: { type: 'STREAM', stream: { stream_descriptor: { name: stream }, stream_state: value } },
  });
}

export function streamStatusLine(stream: string, status: StreamStatus, emittedAt: number): string {
  return line({
    type: 'TRACE',
    trace: {
      type: 'STREAM_STATUS',
      emitted_at: emittedAt,
      stream_status: { stream_descriptor: { name: stream }, status },
    },
  });
}

export function errorTraceLine(
  failure: { message: string; failureType: FailureType; stream?: string },
  emittedAt: number,
): string {
  return line({
    type: 'TRACE',
    trace: {
      type: 'ERROR',
      emitted_at: emittedAt,
      error: {
        message: failure.message,
        failure_type: failure.failureType,
        ...(failure.stream === undefined ? {} : { stream_descriptor: { name: failure.stream } }),
      },
    },
  });
}

export function connectionStatusLine(status: 'SUCCEEDED' | 'FAILED', message: string): string {
  return line({ type: 'CONNECTION_STATUS', connectionStatus: { status, message } });
}

export function specLine(spec: Record<string, unknown>): string {
  return line({ type: 'SPEC', spec });
}

export function catalogLine(catalog: Record<string, unknown>): string {
  return line({ type: 'CATALOG', catalog });
}
