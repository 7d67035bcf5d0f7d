/**
 * What the core knows about a destination, in one object per connector
 * (docs/architecture.md#adding-a-destination): the schema of its `destination:` block, which
 * keys hold secrets or file paths, how large its flushes are, its SQL dialect, how it names
 * its tables for OpenLineage, and `load()`, which imports the connector itself. A descriptor
 * loads no SDK: importing the registry costs a Postgres user nothing of BigQuery's.
 */
import type { DestinationConfig, DestinationConfigSchema } from '../schemas/config.ts';
import type { Destination, DestinationCapabilities, RunIdentity } from '../src/destination/destination.ts';
import type { QueryRole } from '../src/destination/read-only-query.ts';
import type { SqlDialect } from '../src/destination/sql-dialect.ts';
import type { DatasetName } from '../src/lineage/dataset-name.ts';
import type { Logger } from '../src/log/logger.ts';

/** What every connector gets besides its config. */
export interface DestinationDeps {
  readonly logger: Logger;
  /**
   * A bound on each request to the warehouse, for `aivis check`, which must answer within
   * `source.timeout_seconds` even when the warehouse does not. Honoured by Snowflake, whose
   * driver would otherwise retry a login for minutes.
   */
  readonly requestTimeoutMs?: number;
  /** The run this destination serves, so warehouses can tag its jobs and sessions (BigQuery labels, Snowflake QUERY_TAG). */
  readonly run?: RunIdentity;
  /** A query role opened while this process's destination is open on the same DuckDB file (`import-prompts --from-table`). */
  readonly besideDestination?: boolean;
}

/** How much one flush holds: bounded in rows so memory stays flat, in seconds so a kill loses little work. */
export type FlushSizing = Pick<DestinationCapabilities, 'maxRowsPerFlush' | 'maxSecondsPerFlush'>;

/** A key of the `destination:` block that holds a secret, so it must be written `${VAR}`. */
export interface DestinationSecret {
  readonly key: string;
  /** `value`: the whole value is secret; `url`: the password inside a URL is. */
  readonly in: 'value' | 'url';
  /** How the fixed line reads, after "secrets are never read from the YAML text: ". */
  readonly fix: string;
}

/** The connector itself, once `load()` imported it. */
export interface DestinationConnector<Config extends DestinationConfig> {
  createDestination(config: Config, deps: DestinationDeps): Destination;
  /** Its query role, connected (`aivis query`, `import-prompts --from-query`). */
  openQueryRole(config: Config, deps: DestinationDeps): Promise<QueryRole>;
}

export interface DestinationDescriptor<Config extends DestinationConfig = DestinationConfig> {
  /** `destination.type` in the config. */
  readonly type: string;
  /** How docs and messages name it: `Postgres`, `DuckDB`. */
  readonly name: string;
  /** The schema of its `destination:` block, in `schemas/destinations/` with the rest of the config contract. */
  readonly configSchema: DestinationConfigSchema;
  readonly secrets: readonly DestinationSecret[];
  /** The block with every file path in it made absolute by `resolve` (relative paths are the config file's folder's). */
  withAbsolutePaths(config: Config, resolve: (file: string) => string): Config;
  /** How much one flush holds (docs/architecture.md#state-rules); the connector spreads it into its capabilities. */
  readonly flushSizing: FlushSizing;
  /**
   * How its SQL writes names, literals, parameters, types, casts and reads of JSON
   * (`connectors/<name>/<name>-dialect.ts`): what the core writes SQL for it with (type names in
   * docs/tables.md, `aivis dbt-sources`' tests, `--from-table`'s quoting).
   */
  readonly dialect: SqlDialect;
  /** A table of this destination as OpenLineage names it; never with a credential. */
  tableDataset(config: Config, table: string): DatasetName;
  /** Imports the connector (and through it, when it opens, its SDK). */
  load(): Promise<DestinationConnector<Config>>;
}

/**
 * A descriptor for the registry. The registry hands each descriptor only blocks its own
 * `configSchema` parsed, so its functions may take its own config type.
 */
export function describeDestination<Config extends DestinationConfig>(
  descriptor: DestinationDescriptor<Config>,
): DestinationDescriptor {
  return descriptor as unknown as DestinationDescriptor;
}
