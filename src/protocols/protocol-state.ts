/**
 * What a protocol mode saves between reads (docs/protocols.md#state): per stream, aivis's own
 * state with a state-format version and the `base_url` it was read from, so a state written by
 * another format or for another API is refused rather than silently restarted from zero.
 * - a feed: `{ format_version, base_url, scopes: { <scope>: { frontier, cursor, pending_upper_bound } } }`,
 *   the scopes of `_aivis_state` (a website id, with a suffix for a filtered scan); under
 *   `skip_unchanged`, when read incrementally, also `coverage: { <website id>: { last_analysis_at,
 *   read_started_at, read_run_id, changed_at, checked_at } }`, the stream's rows of `_aivis_coverage`
 *   (docs/protocols.md#change-driven-reads), which the next read's plan is made from;
 * - `websites`: `{ format_version, base_url, known_websites: { <id>: <first seen at> } }`, the
 *   ids listed and not yet removed, which the next listing is reconciled with (removals, the
 *   mass-removal guard) since no destination holds them.
 */
import { UTC_TIMESTAMP } from '../../schemas/common.ts';
import type { CoverageRecord } from '../plan/coverage.ts';
import type { StateEntry, StreamState } from '../state/state-entry.ts';
import { INITIAL_STATE, parseStreamState } from '../state/stream-state.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
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
  /** Per engine stream and website id: its coverage record. */
  readonly #coverage = new Map<string, Map<string, CoverageRecord>>();
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
    const coverage = stream.source === 'websites' ? undefined : v.coverage;
    if (coverage !== undefined) this.#restoreCoverage(stream.source, coverage, where);
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

  /** Every feed scope's saved position, as the run planner reads saved state. */
  get feedStates(): StateEntry[] {
    return [...this.#scopes].flatMap(([stream, scopes]) =>
      [...scopes].map(([scope, state]) => ({ stream, scope, state, updatedAt: '' })),
    );
  }

  /** Every coverage record the feeds' states hold. */
  get coverage(): CoverageRecord[] {
    return [...this.#coverage.values()].flatMap((records) => [...records.values()]);
  }

  /** A stream's coverage of a website, kept in that stream's state from now on. */
  setCoverage(record: CoverageRecord): void {
    this.#stateful.add(record.stream);
    let records = this.#coverage.get(record.stream);
    if (!records) this.#coverage.set(record.stream, (records = new Map()));
    records.set(record.website_id, record);
  }

  /**
   * A stream the catalog now reads full refresh: the coverage its state kept while it was read
   * incrementally vouches for nothing any more (it is never skipped), so no STATE carries it again.
   */
  dropCoverage(stream: string): void {
    this.#coverage.delete(stream);
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

  /** A website no longer listed: forgotten, its coverage too (each stream's state drops it when next written). */
  removed(id: string): void {
    this.#stateful.add('websites');
    this.#known.delete(id);
    for (const records of this.#coverage.values()) records.delete(id);
  }

  /** The value a STATE message carries for one stream (the engine stream's state, versioned). */
  value(source: string): StreamStateValue {
    const head = { format_version: STATE_FORMAT_VERSION, base_url: this.#baseUrl };
    if (source === 'websites') return { ...head, known_websites: Object.fromEntries(this.#known) };
    const scopes = { ...head, scopes: Object.fromEntries(this.#scopes.get(source) ?? []) };
    const coverage = this.#coverage.get(source);
    if (!coverage || coverage.size === 0) return scopes;
    return {
      ...scopes,
      coverage: Object.fromEntries(
        [...coverage].map(([id, { _workspace, website_id, stream, ...kept }]) => [id, kept] as const),
      ),
    };
  }

  /** Every stream's value that there is, by engine stream: a Singer STATE's `bookmarks`. */
  values(): Record<string, StreamStateValue> {
    return Object.fromEntries([...this.#stateful].map((source) => [source, this.value(source)]));
  }

  /** A feed's saved `coverage`: each website's record, or a refusal naming what is wrong. */
  #restoreCoverage(stream: string, value: unknown, where: string): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new ProtocolInputError(`${where}: coverage must be a JSON object`);
    for (const [id, entry] of Object.entries(value)) {
      const e = (entry ?? {}) as Record<string, unknown>;
      // A time as aivis writes it (ISO 8601 UTC), or refused as any other broken state is: Date.parse
      // also takes "March 3, 2026" (in the machine's time zone), and an unparsable one never comes due.
      const field = (name: string, kind: 'text' | 'time', nullable = false) => {
        const x = e[name];
        if (nullable && x === null) return null;
        if (typeof x === 'string' && (kind === 'text' || UTC_TIMESTAMP.test(x))) return x;
        const wanted = kind === 'time' ? 'an ISO 8601 timestamp' : 'a string';
        throw new ProtocolInputError(`${where}: coverage.${id}.${name} must be ${wanted}${nullable ? ' or null' : ''}`);
      };
      this.setCoverage({
        _workspace: DEFAULT_WORKSPACE,
        website_id: id,
        stream,
        last_analysis_at: field('last_analysis_at', 'text', true),
        read_started_at: field('read_started_at', 'time')!,
        read_run_id: field('read_run_id', 'text')!,
        changed_at: field('changed_at', 'time')!,
        checked_at: field('checked_at', 'time', true),
      });
    }
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
