/**
 * `read --state F` (docs/protocols.md#state): the state a platform hands back, in each form the
 * Airbyte protocol (v0) allows and platforms send, read as the Airbyte CDK reads it:
 * - a JSON array of state messages: per stream (`type: STREAM`, as aivis prints them; a
 *   `stream_state` that is null or missing, as a platform sends after a stream's reset, is no
 *   state for that stream), or legacy (`type: LEGACY`, or no `type`, with `data`);
 * - a legacy state blob, the `data` of a legacy message: `{ "<stream>": <stream state> }`;
 * - `[]`, `{}` or `null`: no state at all.
 * Fields a platform adds (`sourceStats`, `destinationStats`, `id`, a `namespace`) are ignored.
 */
import { ProtocolInputError, readJsonFile } from '../protocol-input.ts';
import { ProtocolState, savedStream } from '../protocol-state.ts';

/** One stream's saved state as the file gives it, with where it is (a refusal names it). */
interface SavedEntry {
  readonly where: string;
  readonly name: unknown;
  readonly value: unknown;
}

export async function readAirbyteState(file: string | undefined, baseUrl: string): Promise<ProtocolState> {
  const state = new ProtocolState(baseUrl);
  if (file === undefined) return state;
  for (const { where, name, value } of savedEntries(await readJsonFile('state', file), `state file ${file}`)) {
    const stream = savedStream(name, where);
    // No state for the stream (reset): it is read from the beginning.
    if (value === null || value === undefined) continue;
    state.restore(stream, value, `${where} (stream ${stream.name})`);
  }
  return state;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function savedEntries(value: unknown, where: string): SavedEntry[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value.flatMap((message, index) => messageEntries(message, `${where}: [${index}]`));
  if (!isObject(value))
    throw new ProtocolInputError(`${where}: must be a JSON array of state messages, as aivis airbyte read prints them`);
  return 'type' in value ? messageEntries(value, where) : legacyEntries(value, where);
}

/** The `data` of a legacy state: each stream's state under its name. */
function legacyEntries(data: unknown, where: string): SavedEntry[] {
  if (!isObject(data))
    throw new ProtocolInputError(`${where}: a legacy state's data must be a JSON object of stream states by name`);
  return Object.entries(data).map(([name, value]) => ({ where: `${where}: ${name}`, name, value }));
}

function messageEntries(message: unknown, where: string): SavedEntry[] {
  const m = isObject(message) ? message : {};
  if (m.type === 'LEGACY' || (m.type === undefined && 'data' in m)) return legacyEntries(m.data, `${where}.data`);
  if (m.type !== 'STREAM' || !isObject(m.stream))
    throw new ProtocolInputError(
      `${where}: must be a per-stream state message ({"type": "STREAM", "stream": {...}}), as aivis airbyte read prints`,
    );
  const descriptor = isObject(m.stream.stream_descriptor) ? m.stream.stream_descriptor : {};
  return [{ where, name: descriptor.name, value: m.stream.stream_state }];
}
