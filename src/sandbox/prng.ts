/**
 * Seeded randomness keyed by coordinates. Every generated record derives its own generator
 * from (seed, website, analysis, index), so any page of any feed can be produced without
 * materialising the records before it, and the same seed always yields the same bytes.
 */

/** 32-bit FNV-1a of the joined parts; stable across runs and platforms. */
export function hashKey(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = parts.join('\u0001');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A small deterministic generator (mulberry32) with the helpers the data generators need. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A generator for one record, e.g. `Rng.of(seed, websiteId, 'mention', k, i)`. */
  static of(...parts: (string | number)[]): Rng {
    return new Rng(hashKey(...parts));
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A number in [min, max] rounded to `decimals` places. */
  decimal(min: number, max: number, decimals: number): number {
    const scale = 10 ** decimals;
    return Math.round((min + this.next() * (max - min)) * scale) / scale;
  }

  /** `length` characters of [A-Za-z0-9], for identifier tails and keys. */
  token(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}
