/**
 * The Airbyte catalogs (docs/protocols.md#airbyte): what `discover` offers (one stream per
 * table, JSON Schema of its columns, primary key, `incremental` on the feeds with the source's
 * own cursor: the API's `scan_upper_bound`, kept in state) and the configured catalog `read`
 * is handed (which streams, in which sync mode).
 */
import { z } from 'zod';
import { formatIssues } from '../../../schemas/format-issues.ts';
import type { RunEvolution } from '../../evolution/evolve-tables.ts';
import { ProtocolInputError, readJsonFile } from '../protocol-input.ts';
import type { SelectedStream } from '../protocol-read.ts';
import { PROTOCOL_STREAMS, protocolStream, recordSchema } from '../protocol-streams.ts';

/** The catalog under the served contract's `evolution` (`protocol-contract.ts`). */
export function airbyteCatalog(evolution: RunEvolution): Record<string, unknown> {
  return {
    streams: PROTOCOL_STREAMS.map((stream) => ({
      name: stream.name,
      json_schema: recordSchema(stream, evolution),
      supported_sync_modes: stream.incremental ? ['full_refresh', 'incremental'] : ['full_refresh'],
      source_defined_cursor: stream.incremental,
      source_defined_primary_key: stream.table.primaryKey.map((column) => [column]),
      is_resumable: stream.incremental,
    })),
  };
}

/** What aivis reads of a configured catalog; the rest (destination modes, generations) is the platform's. */
const configuredCatalogSchema = z.looseObject({
  streams: z.array(
    z.looseObject({
      stream: z.looseObject({ name: z.string() }),
      sync_mode: z.enum(['full_refresh', 'incremental']),
    }),
  ),
});

export async function readConfiguredCatalog(file: string | undefined): Promise<SelectedStream[]> {
  const parsed = configuredCatalogSchema.safeParse(await readJsonFile('catalog', file));
  if (!parsed.success) throw new ProtocolInputError(`catalog file ${file}: ${formatIssues(parsed.error)}`);
  return parsed.data.streams.map(({ stream: { name }, sync_mode }, index) => {
    const where = `catalog file ${file}: streams[${index}]`;
    const stream = protocolStream(name);
    if (!stream)
      throw new ProtocolInputError(
        `${where}: stream ${JSON.stringify(name)} is not an aivis stream (${PROTOCOL_STREAMS.map((s) => s.name).join(', ')})`,
      );
    if (sync_mode === 'incremental' && !stream.incremental)
      throw new ProtocolInputError(
        `${where}: stream ${name} is read whole every time; its sync_mode must be full_refresh`,
      );
    return { stream, incremental: sync_mode === 'incremental' };
  });
}
