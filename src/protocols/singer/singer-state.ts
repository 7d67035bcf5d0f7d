/** `tap-aivis --state F`: the `value` of the last STATE message, `{ "bookmarks": { <stream>: ... } }` (docs/protocols.md#state). */
import { ProtocolInputError, readJsonFile } from '../protocol-input.ts';
import { ProtocolState, savedStream } from '../protocol-state.ts';

export async function readSingerState(file: string | undefined, baseUrl: string): Promise<ProtocolState> {
  const state = new ProtocolState(baseUrl);
  if (file === undefined) return state;
  const value = await readJsonFile('state', file);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ProtocolInputError(
      `state file ${file}: must be a JSON object, the value of a STATE message tap-aivis printed`,
    );
  const bookmarks = (value as { bookmarks?: unknown }).bookmarks ?? {};
  if (bookmarks === null || typeof bookmarks !== 'object' || Array.isArray(bookmarks))
    throw new ProtocolInputError(`state file ${file}: bookmarks must be a JSON object of stream states`);
  for (const [name, streamState] of Object.entries(bookmarks)) {
    const where = `state file ${file}: bookmarks.${name}`;
    state.restore(savedStream(name, where), streamState, where);
  }
  return state;
}
