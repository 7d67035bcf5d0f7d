/**
 * The Postgres destination. Importing this file loads no driver: `pg` and `pg-copy-streams`
 * are imported by `open()`.
 */
export { createPostgresDestination } from './postgres-destination.ts';
export { openPostgresQuery } from './postgres-query.ts';
