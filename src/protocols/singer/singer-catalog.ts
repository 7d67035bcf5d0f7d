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
            },
          },
          ...streamColumns(stream, evolution).map((column) => ({
            breadcrumb: ['properties', column.name],
            metadata: { inclusion: key.has(column.name) ? 'automatic' : 'available' },
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
    const at = (breadcrumb: readonly string[]) =>
      entry.metadata.find((m) => m.breadcrumb.join('\u0000') === breadcrumb.join('\u0000'))?.metadata ?? {};
    const top = at([]);
    if ((top.selected ?? entry.schema?.selected) !== true) return [];
    const key = new Set<string>(stream.table.primaryKey);
    const keeps = (property: string) => key.has(property) || at(['properties', property]).selected !== false;
    return [{ stream, keeps, incremental: stream.incremental && top['replication-method'] !== 'FULL_TABLE' }];
  });
}
