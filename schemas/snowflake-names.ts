/**
 * How Snowflake reads the `database` and `schema` of a snowflake `destination` block
 * (docs/destinations/snowflake.md, "Names"): a name in double quotes is case-sensitive and
 * kept exactly (`""` inside it is one `"`); any other resolves upper-case, as in Snowflake SQL.
 * Shared by the connector's SQL and the lineage dataset names, which must name the same table.
 */

/** A configured name in double quotes: Snowflake's case-sensitive form, kept exactly. */
const QUOTED = /^"(?:[^"]|"")+"$/;

/** True when the configured name is written in double quotes. */
export function isQuotedName(name: string): boolean {
  return QUOTED.test(name);
}

/**
 * The name the catalog stores for a configured one: a quoted name's text, any other upper-case.
 * @example storedName('"MyDb"') // 'MyDb'; storedName('raw') // 'RAW'
 */
export function storedName(name: string): string {
  return isQuotedName(name) ? name.slice(1, -1).replaceAll('""', '"') : name.toUpperCase();
}
