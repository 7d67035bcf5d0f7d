/** `read --state F`: the JSON array of per-stream STATE messages a previous read printed (docs/protocols.md#state). */
import { ProtocolInputError, readJsonFile } from '../protocol-input.ts';
import { ProtocolState, savedStream } from '../protocol-state.ts';

export async function readAirbyteState(file: string | undefined, baseUrl: string): Promise<ProtocolState> {
  const state = new ProtocolState(baseUrl);
  if (file === undefined) return state;
  const messages = await readJsonFile('state', file);
  if (!Array.isArray(messages))
    throw new ProtocolInputError(`state file ${file}: must be a JSON array of state messages (type STREAM)`);
  messages.forEach((message: unknown, index) => {
    const where = `state file ${file}: [${index}]`;
    const m = (message ?? {}) as {
      type?: unknown;
      stream?: { stream_descriptor?: { name?: unknown }; stream_state?: unknown };
    };
    if (m.type !== 'STREAM' || typeof m.stream !== 'object' || m.stream === null)
      throw new ProtocolInputError(
        `${where}: must be a per-stream state message ({"type": "STREAM", "stream": {...}}), as aivis airbyte read prints`,
      );
    const stream = savedStream(m.stream.stream_descriptor?.name, where);
    state.restore(stream, m.stream.stream_state, `${where} (stream ${stream.name})`);
  });
  return state;
}
