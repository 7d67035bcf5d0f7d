/**
 * Identifiers are always quoted: table and column names come from the contract, the schema
 * name from the user's config, and quoting keeps their case and guards against keywords.
 * Postgres, DuckDB and Snowflake share the ANSI double-quote form.
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `"schema"."table"`, or `"catalog"."schema"."table"`: each part quoted. */
export function qualifiedName(...parts: readonly string[]): string {
  return parts.map(quoteIdentifier).join('.');
}
