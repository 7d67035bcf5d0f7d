/**
 * `metric_versions`: one row per distinct combination of the four version tags analytics
 * rows carry (spec 9.4). A series must not be compared across a change of any of them.
 *
 * `version_key` (the canonical JSON of the four tags) is the key because a JSON column cannot
 * be one on every warehouse. `website_ids` keeps the set behind the `websites` count, so a
 * re-read boundary point or a later run adds each website once; the engine reads the rows at
 * the start of a run (under the run lock) and writes back the ones its analytics changed.
 */
import { column, type TableSpec } from '../destination/table-spec.ts';

export const metricVersionsTable: TableSpec = {
  name: 'metric_versions',
  primaryKey: ['version_key'],
  columns: [
    column('version_key', 'string', false),
    column('projection_version', 'string', false),
    column('metric_definition_bundle_version', 'string', false),
    column('metric_precision_version', 'string', false),
    column('metric_definition_versions', 'json', false),
    column('first_as_of', 'timestamp', false),
    column('last_as_of', 'timestamp', false),
    column('websites', 'int64', false),
    column('website_ids', 'json', false),
    column('first_run_id', 'string', false),
  ],
};
