/**
 * What every stream declares about itself in its own files (docs/architecture.md#adding-a-stream),
 * as a list of what one lacks: the registry's streams and the toy stream are held to it.
 */
import { streamMappings } from '../../src/evolution/evolution-plan.ts';
import { type AnyStream, streamTables } from '../../src/streams/stream.ts';

/** Every way `stream` falls short of the recipe; empty when it declares everything. */
export function missingDeclarations(stream: AnyStream): string[] {
  const missing: string[] = [];
  const tables = streamTables(stream);
  for (const table of tables) {
    if (!table.description?.trim()) missing.push(`${stream.name}: table ${table.name} has no description`);
    for (const column of table.columns)
      if (!column.description?.trim())
        missing.push(`${stream.name}: column ${table.name}.${column.name} has no description`);
    if (!stream.mappings.some((m) => m.table.name === table.name))
      missing.push(`${stream.name}: no record mapping for table ${table.name}`);
  }
  for (const mapping of stream.mappings) {
    if (!tables.includes(mapping.table))
      missing.push(`${stream.name}: a record mapping for ${mapping.table.name}, a table it does not write`);
    for (const object of Object.keys(mapping.keyed))
      if (!mapping.mapped.includes(object))
        missing.push(`${stream.name}: keyed object ${object} of ${mapping.table.name} is not among its mapped fields`);
  }
  if (stream.kind === 'feed') {
    const column = stream.table.columns.find((c) => c.name === stream.windowColumn);
    if (column?.type !== 'timestamp')
      missing.push(
        `${stream.name}: window column ${stream.windowColumn} is not a timestamp column of ${stream.table.name}`,
      );
  }
  try {
    streamMappings(tables, [stream]);
  } catch (error) {
    missing.push(`${stream.name}: ${(error as Error).message}`);
  }
  return missing;
}
