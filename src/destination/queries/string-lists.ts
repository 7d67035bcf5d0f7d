/** Long `IN (...)` lists, split: Snowflake caps a statement's binds, and long lists help no one. */
import type { SqlParam } from '../bookkeeping.ts';

/** Values per `IN (...)` list. */
const VALUES_PER_STATEMENT = 1000;

/** `values` as string parameters, at most `VALUES_PER_STATEMENT` per list; none for no values. */
export function* stringParamLists(values: readonly string[]): Generator<SqlParam[]> {
  for (let start = 0; start < values.length; start += VALUES_PER_STATEMENT)
    yield values.slice(start, start + VALUES_PER_STATEMENT).map((value): SqlParam => ({ type: 'string', value }));
}
