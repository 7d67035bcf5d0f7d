/**
 * What a protocol mode saves between reads (docs/protocols.md#state): per stream, aivis's own
 * state with a state-format version and the `base_url` it was read from, so a state written by
 * another format or for another API is refused rather than silently restarted from zero.
 * - a feed: `{ format_version, base_url, scopes: { <scope>: { frontier, cursor, pending_upper_bound } } }`,
 *   the scopes of `_aivis_state` (a website id, with a suffix for a filtered scan);
 * - `websites`: `{ format_version, base_url, known_websites: { <id>: <first seen at> } }`, the
 *   ids listed and not yet removed, which the next listing is reconciled with (removals, the
 *   mass-removal guard) since no destination holds them.
 */
import type { StreamState } from '../state/state-entry.ts';
import { INITIAL_STATE, parseStreamState } from '../state/stream-state.ts';
import { ProtocolInputError } from './protocol-input.ts';
import { type ProtocolStream, protocolStream } from './protocol-streams.ts';

/** Bumped when the shape of a stream's state changes; a state of another version is refused. */
export const STATE_FORMAT_VERSION = 1;

export type StreamStateValue = Readonly<Record<string, unknown>>;

/** Every stream's state of one read: what `--state` gave, moved on as flushes are written. */
export class ProtocolState {
  readonly #baseUrl: string;
  readonly #scopes = new Map<string, Map<string, StreamState>>();
  readonly #known = new Map<string, string>();
  /** Engine streams that have a state: restored from `--state` or moved by this read. */
  readonly #stateful = new Set<string>();

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  /** Takes one stream's saved value back (`where` names it in a refusal: a file and a stream). */
  restore(stream: ProtocolStream, value: unknown, where: string): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new ProtocolInputError(`${where}: the stream's state must be a JSON object`);
    const v = value as Record<string, unknown>;
    if (v.format_version !== STATE_FORMAT_VERSION)
      throw new ProtocolInputError(
        `${where}: written in state-format version ${JSON.stringify(v.format_version ?? null)}; this aivis reads version ${STATE_FORMAT_VERSION}. Start from an empty state (a full re-read) to replace it`,
      );
    if (v.base_url !== this.#baseUrl)
      throw new ProtocolInputError(
        `${where}: written for base_url ${JSON.stringify(v.base_url ?? null)}, not ${this.#baseUrl}: a state of another API is not resumed from. Start from an empty state to read this one from the beginning`,
      );
    const entries = stream.source === 'websites' ? v.known_websites : v.scopes;
    if (entries === null || typeof entries !== 'object' || Array.isArray(entries))
      throw new ProtocolInputError(
        `${where}: ${stream.source === 'websites' ? 'known_websites' : 'scopes'} must be a JSON object`,
      );
    this.#stateful.add(stream.source);
    for (const [key, entry] of Object.entries(entries)) {
      if (stream.source === 'websites') this.#known.set(key, String(entry));
      else this.#scopesOf(stream.source).set(key, parseStreamState(entry));
    }
  }

  /** Where a feed scope's scan starts: its saved position, or the beginning. */
  position(stream: string, scope: string): StreamState {
    return this.#scopes.get(stream)?.get(scope) ?? INITIAL_STATE;
  }

  setFeedState(stream: string, scope: string, state: StreamState): void {
    this.#stateful.add(stream);
    this.#scopesOf(stream).set(scope, state);
  }

  /** Ids listed and not removed, each with when a read first listed it. */
  get knownWebsites(): ReadonlyMap<string, string> {
    return this.#known;
  }

  /** A listed website: known from now on (its first sighting kept). Returns when it was first seen. */
  listed(id: string, seenAt: string): string {
    this.#stateful.add('websites');
    const first = this.#known.get(id) ?? seenAt;
    this.#known.set(id, first);
    return first;
  }

  removed(id: string): void {
    this.#stateful.add('websites');
    this.#known.delete(id);
  }

  /** The value a STATE message carries for one stream (the engine stream's state, versioned). */
  value(source: string): StreamStateValue {
    const head = { format_version: STATE_FORMAT_VERSION, base_url: this.#baseUrl };
    if (source === 'websites') return { ...head, known_websites: Object.fromEntries(this.#known) };
    return { ...head, scopes: Object.fromEntries(this.#scopes.get(source) ?? []) };
  }

  /** Every stream's value that there is, by engine stream: a Singer STATE's `bookmarks`. */
  values(): Record<string, StreamStateValue> {
    return Object.fromEntries([...this.#stateful].map((source) => [source, this.value(source)]));
  }

  #scopesOf(stream: string): Map<string, StreamState> {
    let scopes = this.#scopes.get(stream);
    if (!scopes) this.#scopes.set(stream, (scopes = new Map()));
    return scopes;
  }
}

/** The protocol stream a saved state names, or a refusal naming it. */
export function savedStream(name: unknown, where: string): ProtocolStream {
  const stream = typeof name === 'string' ? protocolStream(name) : undefined;
  if (!stream)
    throw new ProtocolInputError(`${where}: names stream ${JSON.stringify(name)}, which aivis does not have`);
  return stream;
}
