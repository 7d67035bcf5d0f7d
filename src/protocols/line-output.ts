/**
 * Where a protocol mode writes its messages: one JSON line each on stdout, and nothing else
 * there. A write waits while the pipe is full, so a slow reader (the platform) holds the
 * engine back instead of the heap growing (docs/protocols.md#how-it-works).
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

export class LineOutput {
  readonly #out: Writable;

  constructor(out: Writable = process.stdout) {
    this.#out = out;
  }

  async write(line: string): Promise<void> {
    if (!this.#out.write(`${line}\n`)) await once(this.#out, 'drain');
  }
}
