/**
 * The `destination: { type: snowflake }` config (its zod schema is `snowflakeConfigSchema` in
 * schemas/destinations/snowflake.ts) turned into `snowflake-sdk` connection options, and the connector's
 * capabilities. Secrets (password, key passphrase, the decrypted key) are registered for
 * redaction before anything can log them.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'snowflake-sdk';
import type { SnowflakeConfig } from '../../schemas/destinations/snowflake.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import type { FlushSizing } from '../descriptor.ts';
import { ConfigError } from '../../src/errors.ts';
import { registerSecret } from '../../src/log/redact.ts';

export type { SnowflakeConfig } from '../../schemas/destinations/snowflake.ts';

/**
 * The warehouse bills while it runs: each flush resumes it for a billed minute and keeps it up
 * for AUTO_SUSPEND after, so a sync bound by the API flushes by rows and text, and by time only
 * every 15 minutes (`destination.flush_interval_seconds`): warehouse time follows the rows,
 * and a kill loses at most that long of reading. 15 is the shortest round interval for which
 * a run just longer than one interval (start, one timed flush, end: three resumes of about
 * 70 s) keeps the warehouse running under a quarter of the run (docs/destinations/snowflake.md#cost).
 */
export const SNOWFLAKE_FLUSH_SIZING: FlushSizing = { maxRowsPerFlush: 20_000, maxSecondsPerFlush: 900 };

/** Each flush is one transaction; few, large flushes, their time bound as configured. */
export function snowflakeCapabilities(config: SnowflakeConfig): DestinationCapabilities {
  return {
    transactional: true,
    ...SNOWFLAKE_FLUSH_SIZING,
    maxSecondsPerFlush: config.flush_interval_seconds ?? SNOWFLAKE_FLUSH_SIZING.maxSecondsPerFlush,
  };
}

/**
 * The run lock's lease on Snowflake: two default flush intervals, so renewals ride on the flushes
 * (src/destination/lease-lock.ts) and never resume the warehouse on their own. A killed run
 * keeps the next one out for at most this long.
 */
export const SNOWFLAKE_LEASE_MS = 30 * 60_000;

/**
 * Rows x columns per bound statement stays at or below this, so the driver never takes its
 * stage path (`CREATE TEMPORARY STAGE SYSTEM$BIND` + PUT, a cloud upload): 65280 is
 * Snowflake's default CLIENT_STAGE_ARRAY_BINDING_THRESHOLD, set explicitly so an account
 * parameter cannot lower it under our batches.
 */
export const ARRAY_BINDING_THRESHOLD = 65_280;

/** Where the tables live, named as configured (`locationIdent` in snowflake-sql.ts and `storedName` in schemas/snowflake-names.ts say how Snowflake reads them). */
export interface SnowflakeLocation {
  readonly database: string;
  readonly schema: string;
  readonly role: string | undefined;
}

export function snowflakeLocation(config: SnowflakeConfig): SnowflakeLocation {
  return { database: config.database, schema: config.schema, role: config.role };
}

/**
 * `requestTimeoutMs` (what `aivis check` passes): every request, the login included, fails
 * after this long and the login is not retried, so an account that does not answer fails
 * the check within that time. Absent, the driver's own patience applies: 90 s per request,
 * the login retried for up to 5 minutes, which suits a sync that would rather wait out a
 * blip than fail.
 */
export function connectionOptions(config: SnowflakeConfig, requestTimeoutMs?: number): ConnectionOptions {
  registerSecret(config.password);
  registerSecret(config.private_key_passphrase);
  const location = snowflakeLocation(config);
  const auth = config.private_key_file
    ? {
        authenticator: 'SNOWFLAKE_JWT',
        privateKey: readPrivateKey(config.private_key_file, config.private_key_passphrase),
      }
    : { password: config.password };
  return {
    account: config.account,
    username: config.username,
    ...auth,
    warehouse: config.warehouse,
    // As configured: a quoted name is case-sensitive, any other resolves upper-case (snowflake-sql.ts `locationIdent`).
    database: quotedOrUpper(location.database),
    schema: quotedOrUpper(location.schema),
    ...(config.role ? { role: config.role } : {}),
    ...(config.access_url ? { accessUrl: config.access_url } : {}),
    application: 'aivis',
    arrayBindingThreshold: ARRAY_BINDING_THRESHOLD,
    // Snowflake ends a session after 4 hours without a request, taking its temporary staging
    // tables with it; the data session can idle that long on a slow or rate-limited source.
    // The driver's hourly heartbeat keeps it alive for as long as the run lives.
    clientSessionKeepAlive: true,
    ...(requestTimeoutMs === undefined ? {} : { timeout: requestTimeoutMs, sfRetryMaxLoginRetries: 0 }),
  };
}

function quotedOrUpper(name: string): string {
  return /^".+"$/.test(name) ? name : name.toUpperCase();
}

/** The key as unencrypted PKCS#8 PEM, so a wrong passphrase fails here with a clear message. */
function readPrivateKey(file: string, passphrase: string | undefined): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `destination.private_key_file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    const pem = createPrivateKey({ key: text, format: 'pem', ...(passphrase ? { passphrase } : {}) })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    registerSecret(pem);
    return pem;
  } catch {
    const hint = passphrase
      ? 'is destination.private_key_passphrase right?'
      : 'an encrypted key needs destination.private_key_passphrase';
    throw new ConfigError(
      `destination.private_key_file: ${file} is not a PEM private key this passphrase opens (${hint})`,
    );
  }
}
