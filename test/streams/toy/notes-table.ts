/** The toy stream's table (where a real stream's is in `src/tables/`): every table and column described. */
import { column, tableSpec } from '../../../src/destination/table-spec.ts';
import { LOAD_COLUMNS } from '../../../src/tables/common-columns.ts';

export const notesTable = tableSpec({
  name: 'toy_notes',
  description: 'Notes of a website, read incrementally per website (the toy stream of the adding-a-stream recipe).',
  primaryKey: ['id'],
  clusterBy: ['website_id'],
  columns: [
    column('id', 'string', false, 'The note id.'),
    column('website_id', 'string', false, 'The website (`websites.id`).'),
    column('title', 'string', false, 'The title of the note.'),
    column('available_at', 'timestamp', false, 'When the service published the note.'),
    ...LOAD_COLUMNS,
  ],
});
