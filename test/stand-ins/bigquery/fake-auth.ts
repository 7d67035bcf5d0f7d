/**
 * A google-auth-library client that already holds a token, so the real BigQuery client
 * signs its requests without ever asking Google for one (and without a metadata probe).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OAuth2Client } from 'google-auth-library';

export function fakeAuthClient(): OAuth2Client {
  return accessTokenClient('stand-in-token');
}

/** A client that signs with `token` as given (e.g. `gcloud auth print-access-token`), never refreshing it. */
export function accessTokenClient(token: string): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: token, expiry_date: Date.now() + 24 * 3_600_000 });
  return client;
}

/**
 * Application Default Credentials in `dir` as a workload would have them: an `external_account`
 * file (what GOOGLE_APPLICATION_CREDENTIALS names; its path is returned) whose token exchange
 * the stand-in at `standInUrl` answers.
 */
export async function writeAdcFile(dir: string, standInUrl: string): Promise<string> {
  await writeFile(path.join(dir, 'subject-token'), 'workload-identity-subject');
  const file = path.join(dir, 'adc.json');
  await writeFile(
    file,
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/aivis/providers/ci',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${standInUrl}/token`,
      credential_source: { file: path.join(dir, 'subject-token') },
    }),
  );
  return file;
}
