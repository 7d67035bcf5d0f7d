/**
 * The Singer catalog (docs/protocols.md#singer): what `tap-aivis --discover` prints, and which
 * streams and properties a catalog handed to `--catalog`/`--properties` selects through its
 * metadata (breadcrumb `[]` for the stream, `["properties", name]` for a property).
 */
import { z } from 'zod';
import { formatIssues } from '../../../schemas/format-issues.ts';
import type { RunEvolution } from '../../evolution/evolve-tables.ts';
import { ProtocolInputError, readJsonFile } from '../protocol-input.ts';
import {
  type ProtocolStream,
  PROTOCOL_STREAMS,
  protocolStream,
  recordSchema,
  streamColumns,
} from '../protocol-streams.ts';

/** The catalog under the served contract's `evolution` (`protocol-contract.ts`). */
export function singerCatalog(evolution: RunEvolution): Record<string, unknown> {
  return {
    streams: PROTOCOL_STREAMS.map((stream) => {
      const key = new Set<string>(stream.table.primaryKey);
      return {
        tap_stream_id: stream.name,
        stream: stream.name,
        schema: recordSchema(stream, evolution),
        key_properties: [...key],
        metadata: [
          {
            breadcrumb: [],
            metadata: {
              'table-key-properties': [...key],
              'forced-replication-method': stream.incremental ? 'INCREMENTAL' : 'FULL_TABLE',
              // The bookmark is the API's own scan frontier (state), not a field of the records.
              'valid-replication-keys': [],
              inclusion: 'available',
              // A catalog handed back as discovered reads every stream (the SDK's rule, below).
              'selected-by-default': true,
            },
          },
          ...streamColumns(stream, evolution).map((column) => ({
            breadcrumb: ['properties', column.name],
            metadata: key.has(column.name)
              ? { inclusion: 'automatic' }
              : { inclusion: 'available', 'selected-by-default': true },
          })),
        ],
      };
    }),
  };
}

/** A stream a sync reads, with the properties its records keep. */
export interface SingerSelection {
  readonly stream: ProtocolStream;
  /**
   * Whether its records keep a property: the key always, any other unless the catalog
   * deselects it (a column the served contract adds after the catalog was made included).
   */
  readonly keeps: (property: string) => boolean;
  /** Resume from `--state`; a stream whose `replication-method` says FULL_TABLE reads from the start. */
  readonly incremental: boolean;
}

const metadataSchema = z.array(
  z.looseObject({ breadcrumb: z.array(z.string()), metadata: z.record(z.string(), z.unknown()) }),
);
const catalogSchema = z.looseObject({
  streams: z.array(
    z.looseObject({
      tap_stream_id: z.string(),
      schema: z.looseObject({ selected: z.boolean().optional() }).optional(),
      metadata: metadataSchema.default([]),
    }),
  ),
});

/** Every stream and property when no catalog is given; else what the catalog's metadata selects. */
export async function readSingerCatalog(file: string | undefined, flag: string): Promise<SingerSelection[]> {
  if (file === undefined)
    return PROTOCOL_STREAMS.map((stream) => ({ stream, keeps: () => true, incremental: stream.incremental }));
  const parsed = catalogSchema.safeParse(await readJsonFile('catalog', file));
  if (!parsed.success) throw new ProtocolInputError(`${flag} file ${file}: ${formatIssues(parsed.error)}`);
  return parsed.data.streams.flatMap((entry, index) => {
    const stream = protocolStream(entry.tap_stream_id);
    if (!stream)
      throw new ProtocolInputError(
        `${flag} file ${file}: streams[${index}]: tap_stream_id ${JSON.stringify(entry.tap_stream_id)} is not an aivis stream (${PROTOCOL_STREAMS.map((s) => s.name).join(', ')})`,
      );
    const metadata = new Map(entry.metadata.map((m) => [m.breadcrumb.join('\u0000'), m.metadata]));
    // A catalog of the older Singer form says `selected` in the stream's schema.
    const legacy = entry.schema?.selected;
    if (legacy !== undefined && metadata.get('')?.selected === undefined)
      metadata.set('', { ...metadata.get(''), selected: legacy });
    if (!isSelected(metadata, [])) return [];
    const key = new Set<string>(stream.table.primaryKey);
    const keeps = (property: string) => key.has(property) || isSelected(metadata, ['properties', property]);
    const top = metadata.get('') ?? {};
    return [{ stream, keeps, incremental: stream.incremental && top['replication-method'] !== 'FULL_TABLE' }];
  });
}

/**
 * Whether a breadcrumb is selected, as the Meltano Singer SDK resolves it
 * (`MetadataMapping._breadcrumb_is_selected`, singer_sdk/_singerlib/catalog.py): no metadata at
 * all selects everything; a property of a stream not selected is not; `inclusion: unsupported`
 * never is and `automatic` always is; then `selected`, else `selected-by-default`, else the
 * parent's value (a stream: not selected).
 */
function isSelected(metadata: ReadonlyMap<string, Record<string, unknown>>, breadcrumb: readonly string[]): boolean {
  if (metadata.size === 0) return true;
  const entry = metadata.get(breadcrumb.join('\u0000')) ?? {};
  const parent = breadcrumb.length > 0 ? isSelected(metadata, breadcrumb.slice(0, -2)) : undefined;
  if (parent === false) return false;
  if (entry.inclusion === 'unsupported') return false;
  if (entry.inclusion === 'automatic') return true;
  if (typeof entry.selected === 'boolean') return entry.selected;
  if (typeof entry['selected-by-default'] === 'boolean') return entry['selected-by-default'];
  return parent ?? false;
}
