/**
 * Connection options derived from the `destination` block of a postgres config (its zod
 * schema is `postgresConfigSchema` in schemas/destinations/postgres.ts), and the connector's capabilities.
 */
import { POSTGRES_URL_UNPARSABLE, type PostgresConfig } from '../../schemas/destinations/postgres.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import type { FlushSizing } from '../descriptor.ts';
import { readFileSync } from 'node:fs';
import { closestMatch } from '../../src/config/closest-match.ts';
import { describeReadFailure } from '../../src/config/read-failure.ts';
import { ConfigError } from '../../src/errors.ts';
import { registerSecret } from '../../src/log/redact.ts';

export type { PostgresConfig } from '../../schemas/destinations/postgres.ts';

/** A commit is cheap: flush every page or few, so a kill loses seconds of work (docs/architecture.md#state-rules). */
export const POSTGRES_FLUSH_SIZING: FlushSizing = { maxRowsPerFlush: 5_000, maxSecondsPerFlush: 5 };

/** A flush is one transaction. */
export const POSTGRES_CAPABILITIES: DestinationCapabilities = { transactional: true, ...POSTGRES_FLUSH_SIZING };

export interface PostgresOptions {
  readonly connectionString: string;
  readonly schema: string;
  /** `host:port`, for messages (never carries the password). */
  readonly address: string;
  readonly user: string;
  readonly database: string;
}

export function postgresOptions(config: PostgresConfig): PostgresOptions {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    // The config's schema refuses it at load; a config built in code may still hold one.
    throw new ConfigError(`destination.url ${POSTGRES_URL_UNPARSABLE}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`destination.url must start with postgres:// (got ${url.protocol}//)`);
  }
  // The password may appear raw or percent-decoded in driver messages: mask both.
  registerSecret(url.password);
  registerSecret(decode(url.password));
  return {
    connectionString: withTls(url, config.url),
    schema: config.schema,
    address: `${url.hostname || 'localhost'}:${url.port || '5432'}`,
    user: decode(url.username) || process.env.PGUSER || process.env.USER || 'postgres',
    database: decode(url.pathname.slice(1)) || decode(url.username) || 'postgres',
  };
}

/**
 * libpq's `sslmode` values, read as node-postgres's libpq compatibility reads them: `require`
 * encrypts without checking the certificate (unless `sslrootcert` is given), `verify-ca` checks
 * it against `sslrootcert`, `verify-full` checks the host name too; `prefer` never falls back
 * to plain text (docs/destinations/postgres.md#tls).
 */
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];

/**
 * The URL with its TLS parameters checked (docs/destinations/postgres.md#tls): node-postgres
 * reads `require` as `verify-full` and warns about it in a multi-line SECURITY WARNING; with
 * `uselibpqcompat=true` it reads each mode as that page's table says. A CA file that cannot be
 * read, or `verify-ca` without one, is a config error here rather than a failure at connect time.
 */
function withTls(url: URL, connectionString: string): string {
  const params = url.searchParams;
  const mode = params.get('sslmode');
  const rootCert = params.get('sslrootcert');
  if (mode !== null && !SSL_MODES.includes(mode)) {
    const closest = closestMatch(mode, SSL_MODES);
    throw new ConfigError(
      `destination.url has sslmode=${mode}${closest ? ` (did you mean ${closest}?)` : ''}: use one of ${SSL_MODES.join(', ')}`,
    );
  }
  if (mode === 'verify-ca' && rootCert === null) {
    throw new ConfigError(
      "destination.url has sslmode=verify-ca without sslrootcert: add sslrootcert=/path/to/ca.pem, the CA that signed the server's certificate",
    );
  }
  if (rootCert !== null) {
    try {
      readFileSync(rootCert);
    } catch (error) {
      throw new ConfigError(
        `destination.url has sslrootcert=${rootCert}, which cannot be read (${describeReadFailure(error)}): give the absolute path of the CA's PEM file`,
      );
    }
  }
  if (mode === null || params.has('uselibpqcompat')) return connectionString;
  return `${connectionString}${url.search === '' ? '?' : '&'}uselibpqcompat=true`;
}

/** Percent-decoding that keeps malformed input as written instead of throwing. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
