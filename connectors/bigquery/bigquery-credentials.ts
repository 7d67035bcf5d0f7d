/**
 * Who the connector is to Google: a service-account key file (`key_file`) or Application
 * Default Credentials. The key file becomes a `JWT` client here: google-auth-library 11 prints
 * a deprecation warning to the console for `keyFilename`, `credentials` and `fromJSON`, and a
 * file that is missing or of the wrong kind deserves a message naming the config key.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BigqueryConfig } from '../../schemas/destinations/bigquery.ts';
import { ConfigError } from '../../src/errors.ts';
import { registerSecret } from '../../src/log/redact.ts';

const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';

interface ServiceAccountKey {
  type?: string;
  client_email?: string;
  private_key?: string;
  private_key_id?: string;
}

/** A google-auth-library `JWT` client for the service-account key at `file`. */
export async function keyFileAuthClient(file: string): Promise<unknown> {
  let key: ServiceAccountKey;
  try {
    key = JSON.parse(await readFile(file, 'utf8')) as ServiceAccountKey;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ConfigError(`destination.key_file ${file}: cannot read a service-account key (${why})`);
  }
  if (key.type !== 'service_account' || !key.client_email || !key.private_key) {
    throw new ConfigError(
      `destination.key_file ${file}: not a service-account key (type ${JSON.stringify(key.type ?? null)}); ` +
        'for other credentials leave key_file out and use Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS)',
    );
  }
  registerSecret(key.private_key);
  const { JWT } = await import('google-auth-library');
  return new JWT({
    email: key.client_email,
    key: key.private_key,
    keyId: key.private_key_id,
    scopes: [BIGQUERY_SCOPE],
  });
}

/**
 * True when the credentials come from somewhere other than the metadata server, so
 * google-auth-library must not probe it (a probe from a laptop or CI waits on a network
 * timeout, and leaves the machine). Only ADC with nothing on disk needs the probe: that is
 * how a workload on GCE/GKE/Cloud Run finds its identity.
 */
export function credentialsAvoidMetadataServer(
  config: BigqueryConfig,
  env: NodeJS.ProcessEnv,
  hasAuthClient: boolean,
): boolean {
  if (hasAuthClient || config.key_file || env.GOOGLE_APPLICATION_CREDENTIALS) return true;
  const configDir = env.CLOUDSDK_CONFIG ?? path.join(os.homedir(), '.config', 'gcloud');
  return existsSync(path.join(configDir, 'application_default_credentials.json'));
}
