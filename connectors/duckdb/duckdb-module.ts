/**
 * Loads `@duckdb/node-api`, lazily (only a run on DuckDB pays for the library), with its
 * allocator told to hand freed memory back promptly. DuckDB's Linux build allocates through its
 * own jemalloc, which keeps freed pages for about a second before returning them: flush after
 * flush that kept some 100-200 MB above `memory_limit` in the process (the largest page peaked
 * at 532-608 MB against a 512 MB bound, docs/destinations/duckdb.md#memory). jemalloc reads its
 * options once, from `DUCKDB_JE_MALLOC_CONF`, when the library first allocates; a value the
 * user set is kept as it is.
 */

/** Dirty pages back after 100 ms (0 cost half the load speed), muzzy ones at once. */
export const ALLOCATOR_OPTIONS = 'dirty_decay_ms:100,muzzy_decay_ms:0';

export function importDuckdb(): Promise<typeof import('@duckdb/node-api')> {
  process.env.DUCKDB_JE_MALLOC_CONF ??= ALLOCATOR_OPTIONS;
  return import('@duckdb/node-api');
}
