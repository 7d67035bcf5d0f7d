/**
 * A google-auth-library client that already holds a token, so the real BigQuery client
 * signs its requests without ever asking Google for one (and without a metadata probe).
 */
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
