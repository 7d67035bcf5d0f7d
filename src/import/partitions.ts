/**
 * Pass two: cuts the checked input into requests of at most 1,000 items and 5 MiB, measured
 * in bytes of the exact body that will be sent (multibyte text counts as its UTF-8 bytes).
 * Each partition is an independent atomic operation (spec 4.7 rule 7). One partition is in
 * memory at a time. Items whose text digest is in `known` are left out (only what is new).
 * A table or query source is cut only from the rows pass one `checked` (checked-rows.ts).
 */
import { createHash } from 'node:crypto';
import { IMPORT_LIMITS } from '../../schemas/import-limits.ts';
import type { CheckedRows } from './checked-rows.ts';
import type { ImportOptions } from './import-options.ts';
import { readInputItems } from './input-items.ts';
import { type KnownDigests, textSha256 } from './prompt-digest.ts';

export interface Partition {
  /** 0-based position in the file. */
  readonly index: number;
  /** Input line (file) or row position (table, query) of each item, by item index: maps receipt items back to the input. */
  readonly lines: readonly number[];
  /** What `lines` count, as messages name a position: a file's `line`, a table's or query's `row`. */
  readonly unit: PositionUnit;
  /**
   * Where the journal records it. A file's partition by its number: the same file cuts the same
   * partitions, and a changed one is caught by the service's 409 on the reused key. A table's or
   * query's by its body digest: each run cuts only the rows not yet known, so a number names
   * other rows from one run to the next, while the same rows are the same partition.
   */
  readonly slot: string;
  /** `textSha256` of each item's text, by item index: `prompt_import_items.text_sha256`. */
  readonly digests: readonly string[];
  /** The request body, byte for byte as sent on every attempt. */
  readonly body: Uint8Array;
  /** sha256 hex of `body`. */
  readonly bodySha256: string;
}

/** How an input names the position of an item. */
export type PositionUnit = 'line' | 'row';

export interface PartitionLimits {
  maxItems: number;
  maxBodyBytes: number;
}

const encoder = new TextEncoder();

/** The request envelope around the items, in a fixed key order so the bytes are stable. */
function envelope(options: ImportOptions): { head: Uint8Array; tail: Uint8Array } {
  const tail = `],"defaults":${JSON.stringify(options.defaults)},"classification":${JSON.stringify({ mode: options.mode })},"validate_only":${options.validateOnly}}`;
  return { head: encoder.encode('{"items":['), tail: encoder.encode(tail) };
}

function assemble(
  index: number,
  unit: PositionUnit,
  head: Uint8Array,
  tail: Uint8Array,
  items: Uint8Array[],
  lines: number[],
  digests: string[],
): Partition {
  const comma = encoder.encode(',');
  const parts = [head, ...items.flatMap((item, i) => (i === 0 ? [item] : [comma, item])), tail];
  const body = Buffer.concat(parts);
  const bodySha256 = createHash('sha256').update(body).digest('hex');
  return { index, unit, slot: unit === 'row' ? bodySha256 : String(index), lines, digests, body, bodySha256 };
}

export async function* partitionInput(
  options: ImportOptions,
  limits: PartitionLimits = IMPORT_LIMITS,
  known?: KnownDigests,
  checked?: CheckedRows,
): AsyncGenerator<Partition> {
  const { head, tail } = envelope(options);
  const unit: PositionUnit = options.warehouse ? 'row' : 'line';
  let items: Uint8Array[] = [];
  let lines: number[] = [];
  let digests: string[] = [];
  let size = head.length + tail.length;
  let index = 0;
  const records = readInputItems(options);
  for await (const record of checked ? checked.unchanged(records, options.file) : records) {
    if (!record.item) continue; // pass one refused the input before any partition is cut
    const digest = textSha256(String(record.item.prompt_text));
    if (known?.has(digest)) continue;
    const encoded = encoder.encode(JSON.stringify(record.item));
    const grown = size + encoded.length + (items.length ? 1 : 0);
    if (items.length && (items.length >= limits.maxItems || grown > limits.maxBodyBytes)) {
      yield assemble(index++, unit, head, tail, items, lines, digests);
      items = [];
      lines = [];
      digests = [];
      size = head.length + tail.length;
    }
    size += encoded.length + (items.length ? 1 : 0);
    items.push(encoded);
    lines.push(record.line);
    digests.push(digest);
  }
  if (items.length) yield assemble(index, unit, head, tail, items, lines, digests);
}
