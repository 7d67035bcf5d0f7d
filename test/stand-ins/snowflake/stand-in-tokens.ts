/**
 * Snowflake's session lifetime as the stand-in keeps it, on the stand-in clock:
 * - login issues a session token (valid 1 hour) and a master token;
 * - a request whose session token has expired gets 390112, and the driver renews the token
 *   with the master token (`POST /session/token-request`), which issues both anew;
 * - a session with no request for 4 hours (no statement, no renewal, no keep-alive heartbeat)
 *   ends: Snowflake's idle timeout, which the driver's `clientSessionKeepAlive` heartbeat
 *   exists to prevent. Ending it rolls back its transaction and drops its temporary tables;
 *   its session token then gets 390112 and its master token 390114, so the driver reports
 *   the connection terminated.
 */
import { randomUUID } from 'node:crypto';
import type { StandInClock } from './stand-in-clock.ts';
import { masterTokenExpired, sessionGone } from './snowflake-errors.ts';

const SESSION_TOKEN_VALIDITY_S = 3600;
const MASTER_TOKEN_VALIDITY_S = 14_400;
/** Snowflake ends a session after this long without a request. */
export const SESSION_IDLE_TIMEOUT_MS = 4 * 3600_000;

/** The tokens of a login or a renewal, named as the driver reads them. */
export interface IssuedTokens {
  readonly token: string;
  readonly masterToken: string;
  readonly validityInSeconds: number;
  readonly masterValidityInSeconds: number;
}

interface Lifetime {
  token: string;
  masterToken: string;
  tokenIssuedAt: number;
  cancelIdleEnd: () => void;
}

export class SessionTokens<S> {
  readonly #clock: StandInClock;
  readonly #end: (session: S) => Promise<void>;
  readonly #lifetimes = new Map<S, Lifetime>();
  readonly #byToken = new Map<string, S>();
  readonly #byMaster = new Map<string, S>();

  /** `end` ends a session whose idle time ran out (after its tokens are void). */
  constructor(clock: StandInClock, end: (session: S) => Promise<void>) {
    this.#clock = clock;
    this.#end = end;
  }

  /** Live sessions. */
  sessions(): S[] {
    return [...this.#lifetimes.keys()];
  }

  issue(session: S): IssuedTokens {
    this.#lifetimes.set(session, { token: '', masterToken: '', tokenIssuedAt: 0, cancelIdleEnd: () => undefined });
    return this.#reissue(session);
  }

  /** The session a request's session token belongs to (the request counts as activity). */
  sessionOf(token: string): S {
    const session = this.#byToken.get(token);
    const lifetime = session && this.#lifetimes.get(session);
    if (!session || !lifetime || this.#clock.now() - lifetime.tokenIssuedAt >= SESSION_TOKEN_VALIDITY_S * 1000)
      throw sessionGone();
    this.#touch(session, lifetime);
    return session;
  }

  /** `POST /session/token-request` (RENEW) with the master token. */
  renew(masterToken: string): IssuedTokens {
    const session = this.#byMaster.get(masterToken);
    if (!session) throw masterTokenExpired();
    return this.#reissue(session);
  }

  /** The session ended (logout, or its idle time ran out): its tokens are void. */
  forget(session: S): void {
    const lifetime = this.#lifetimes.get(session);
    if (!lifetime) return;
    lifetime.cancelIdleEnd();
    this.#byToken.delete(lifetime.token);
    this.#byMaster.delete(lifetime.masterToken);
    this.#lifetimes.delete(session);
  }

  #reissue(session: S): IssuedTokens {
    const lifetime = this.#lifetimes.get(session)!;
    this.#byToken.delete(lifetime.token);
    this.#byMaster.delete(lifetime.masterToken);
    lifetime.token = randomUUID();
    lifetime.masterToken = randomUUID();
    lifetime.tokenIssuedAt = this.#clock.now();
    this.#byToken.set(lifetime.token, session);
    this.#byMaster.set(lifetime.masterToken, session);
    this.#touch(session, lifetime);
    return {
      token: lifetime.token,
      masterToken: lifetime.masterToken,
      validityInSeconds: SESSION_TOKEN_VALIDITY_S,
      masterValidityInSeconds: MASTER_TOKEN_VALIDITY_S,
    };
  }

  #touch(session: S, lifetime: Lifetime): void {
    lifetime.cancelIdleEnd();
    lifetime.cancelIdleEnd = this.#clock.at(this.#clock.now() + SESSION_IDLE_TIMEOUT_MS, async () => {
      this.forget(session);
      await this.#end(session);
    });
  }
}
