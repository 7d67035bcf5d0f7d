/**
 * Connection options derived from the `destination` block of a postgres config (its zod
 * schema is `postgresConfigSchema` in schemas/config.ts), and the connector's capabilities.
 */
import type { PostgresConfig } from '../../schemas/config.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import { FLUSH_SIZING } from '../../src/destination/flush-sizing.ts';
import { ConfigError } from '../../src/errors.ts';
import { registerSecret } from '../../src/log/redact.ts';

export type { PostgresConfig } from '../../schemas/config.ts';

/** A flush is one transaction; commits are cheap, so flushes are small (flush-sizing.ts). */
export const POSTGRES_CAPABILITIES: DestinationCapabilities = { transactional: true, ...FLUSH_SIZING.postgres };

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
    throw new ConfigError('destination.url is not a URL: write it as postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`destination.url must start with postgres:// (got ${url.protocol}//)`);
  }
  // The password may appear raw or percent-decoded in driver messages: mask both.
  registerSecret(url.password);
  registerSecret(decode(url.password));
  return {
    connectionString: config.url,
    schema: config.schema,
    address: `${url.hostname || 'localhost'}:${url.port || '5432'}`,
    user: decode(url.username) || process.env.PGUSER || process.env.USER || 'postgres',
    database: decode(url.pathname.slice(1)) || decode(url.username) || 'postgres',
  };
}

/** Percent-decoding that keeps malformed input as written instead of throwing. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
