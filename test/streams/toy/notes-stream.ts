/**
 * The toy stream (where a real stream's is `src/streams/<name>.ts`): a feed declaring everything
 * about itself, the mapping schema evolution fills from `_raw` and the column verify windows by
 * included (docs/architecture.md#adding-a-stream).
 */
import { z } from 'zod';
import { feedStream, loadColumns, UNFILTERED_SCAN } from '../../../src/streams/stream.ts';
import { noteSchema } from './note-schema.ts';
import { notesTable } from './notes-table.ts';

export const notesStream = feedStream({
  kind: 'feed',
  name: 'toy_notes',
  // A real stream's entry in STREAM_OPTIONS (schemas/streams-config.ts): it takes none.
  options: z.strictObject({}),
  table: notesTable,
  recordSchema: noteSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/notes`,
  scans: () => [...UNFILTERED_SCAN],
  mappings: [{ table: notesTable, rawPath: [], mapped: ['id', 'title', 'available_at'], keyed: {} }],
  windowColumn: 'available_at',
  toRow(note, raw, context) {
    return {
      id: note.id,
      website_id: context.websiteId,
      title: note.title,
      available_at: note.available_at,
      ...loadColumns(notesTable, raw, context),
    };
  },
});
