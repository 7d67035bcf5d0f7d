/**
 * Login checks of the stand-in: a password, or a key-pair JWT (RS256) whose issuer carries
 * the SHA-256 fingerprint of the user's registered public key, as Snowflake checks them.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { jwtInvalid, loginFailed } from './snowflake-errors.ts';

/** A user the stand-in accepts: a password, a public key (PEM), or both. */
export interface StandInUser {
  readonly name: string;
  readonly password?: string;
  readonly publicKeyPem?: string;
}

/** The login request's `data` fields the stand-in reads. */
export interface LoginData {
  readonly ACCOUNT_NAME?: string;
  readonly LOGIN_NAME?: string;
  readonly PASSWORD?: string;
  readonly AUTHENTICATOR?: string;
  readonly TOKEN?: string;
  /** Session parameters the client asks for, e.g. CLIENT_SESSION_KEEP_ALIVE. */
  readonly SESSION_PARAMETERS?: Readonly<Record<string, unknown>>;
}

/** Returns the user, or throws Snowflake's login error. */
export function authenticate(users: readonly StandInUser[], data: LoginData): StandInUser {
  const user = users.find((u) => u.name.toUpperCase() === (data.LOGIN_NAME ?? '').toUpperCase());
  if (data.AUTHENTICATOR === 'SNOWFLAKE_JWT') {
    if (!user?.publicKeyPem || !data.TOKEN || !jwtMatches(data.TOKEN, user, data.ACCOUNT_NAME ?? ''))
      throw jwtInvalid();
    return user;
  }
  if (!user?.password || user.password !== data.PASSWORD) throw loginFailed();
  return user;
}

function jwtMatches(token: string, user: StandInUser, account: string): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const publicKey = createPublicKey(user.publicKeyPem!);
  if (!verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')))
    return false;
  const fingerprint =
    'SHA256:' +
    createHash('sha256')
      .update(publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
    iss?: string;
    sub?: string;
    exp?: number;
  };
  const subject = `${account.toUpperCase()}.${user.name.toUpperCase()}`;
  return claims.sub === subject && claims.iss === `${subject}.${fingerprint}`;
}
