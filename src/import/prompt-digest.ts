/**
 * What "the same prompt" means when aivis decides a row is already imported
 * (docs/prompt-import.md#only-what-is-new). The spec says the service deduplicates on Unicode,
 * case and whitespace with punctuation kept, but not exactly how; so aivis normalizes no
 * further than the service plausibly does (NFC, trimmed, whitespace collapsed, lowercased).
 * Two texts with the same digest are then duplicates to the service too: aivis may send a
 * duplicate that the service skips, but never holds back a prompt the service would keep.
 */
import { createHash } from 'node:crypto';

export const DIGEST_BYTES = 32;

/** The text as the digest sees it; never stored. */
export function digestText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** SHA-256 of the normalized text, hex: `prompt_import_items.text_sha256`. */
export function textSha256(text: string): string {
  return createHash('sha256').update(digestText(text)).digest('hex');
}

/**
 * The digests a website already has, compact: one Buffer of sorted 32-byte digests searched
 * by bisection (32 MB for a million prompts, where a Set of hex strings would take several
 * times that).
 */
export class KnownDigests {
  private buffer = Buffer.alloc(0);
  private count = 0;

  /** Adds a digest (hex); call `seal` once all are in. */
  append(hex: string): void {
    const digest = Buffer.from(hex, 'hex');
    if (digest.length !== DIGEST_BYTES) return;
    if ((this.count + 1) * DIGEST_BYTES > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(DIGEST_BYTES * 1024, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.count * DIGEST_BYTES);
      this.buffer = grown;
    }
    digest.copy(this.buffer, this.count * DIGEST_BYTES);
    this.count++;
  }

  /** Sorts the digests bytewise (a warehouse's collation may order text otherwise), by an index of 4 bytes each. */
  seal(): this {
    const at = (i: number) => this.buffer.subarray(i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
    const d = DIGEST_BYTES;
    const order = Uint32Array.from({ length: this.count }, (_, i) => i).sort((a, b) =>
      this.buffer.compare(this.buffer, b * d, (b + 1) * d, a * d, (a + 1) * d),
    );
    const sorted = Buffer.alloc(this.count * DIGEST_BYTES);
    order.forEach((from, to) => {
      at(from).copy(sorted, to * DIGEST_BYTES);
    });
    this.buffer = sorted;
    return this;
  }

  get size(): number {
    return this.count;
  }

  has(hex: string): boolean {
    const digest = Buffer.from(hex, 'hex');
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = digest.compare(this.buffer, middle * DIGEST_BYTES, (middle + 1) * DIGEST_BYTES);
      if (order === 0) return true;
      if (order > 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}
