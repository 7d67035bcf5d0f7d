/**
 * Secrets never appear in logs, errors, tables or snapshots (docs/architecture.md#api-client).
 * Every secret the process learns (API key, database password, private key passphrase) is
 * registered here once, and every line the process writes passes through `redact`.
 *
 * What is masked:
 * - every occurrence of a registered secret (and of its JSON-escaped form);
 * - a leading part of one, at least `PREFIX_CHARS` long, standing as a token of its own: a
 *   server that echoes a key shortened (`key sk_live_9f8e… is invalid`), a message that
 *   previews the first characters of a value. "A token of its own" means no letter, digit,
 *   `_` or `-` directly before or after it, so text that merely shares a key's first
 *   characters (a vendor prefix such as `sk_live_` followed by another key) stays readable.
 *   A prefix shorter than 8 characters is never masked: it says too little to be worth the
 *   noise of masking common words.
 * - any bearer token, registered or not: `Bearer` followed by a token68 string (RFC 6750's
 *   credentials) of at least 16 characters; a server's prose ("does not carry a known bearer
 *   key.") stays readable;
 * - the password of any URL (`postgres://user:secret@host` -> `postgres://user:[REDACTED]@host`),
 *   whatever key or message it came in: a database URL put under the wrong key is not
 *   registered as a secret, and must not be printed either. A `${VAR}` reference is no secret
 *   and stays; a hint's own example writes its password `<password>`, which no URL password
 *   holds (`write it as postgres://user:<password>@host`), so it reads as written.
 * The cost is one scan of the text per registered secret (a handful per process).
 */

const MASK = '[REDACTED]';
/** The shortest leading part of a secret that is masked on its own. */
const PREFIX_CHARS = 8;
/** Characters that continue a token: a prefix touching one is part of some other word. */
const TOKEN_CHAR = /[A-Za-z0-9_-]/;
const secrets = new Set<string>();
/**
 * `Bearer <token68>` (the scheme is case-insensitive), the token run whole: at least 16
 * token68 characters. API keys and JWTs are far longer than a word of prose; token68 characters
 * only, so a JSON line's backslash or closing quote is never eaten with the token.
 */
const BEARER_TOKEN = /\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi;

/** Registers a secret; values shorter than 4 characters are ignored (they would mask noise). */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < 4) return;
  secrets.add(value);
  // A JSON log line carries the secret escaped (a quote or backslash in a password): mask that form too.
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) secrets.add(escaped);
}

/** Replaces every registered secret, every standalone prefix of one, and any bearer token, in `text`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  for (const secret of secrets) {
    if (secret.length > PREFIX_CHARS) out = maskPrefixes(out, secret);
  }
  return maskUrlCredentials(out.replace(BEARER_TOKEN, `$1${MASK}`));
}

/** `scheme://user:password@`: the password runs to the last `@` before the host, without spaces or quotes. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>]*):([^\s/"'<>]*)@/gi;
/** A `${VAR}` reference standing for a password in a config: no secret to mask. (A password that is the word `password` is still one.) */
const PASSWORD_PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Every URL's password in `text` masked, its scheme, user and host kept; a placeholder kept too. */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_CREDENTIALS, (whole, userPart: string, password: string) =>
    PASSWORD_PLACEHOLDER.test(password) ? whole : `${userPart}:${MASK}@`,
  );
}

/** Masks each standalone run of `text` that is a leading part of `secret`, `PREFIX_CHARS` or longer. */
function maskPrefixes(text: string, secret: string): string {
  const head = secret.slice(0, PREFIX_CHARS);
  let out = '';
  let copied = 0;
  for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
    if (at < copied) continue;
    let end = at + PREFIX_CHARS;
    while (end < text.length && end - at < secret.length && text[end] === secret[end - at]) end++;
    const standsAlone = !TOKEN_CHAR.test(text[at - 1] ?? '') && !TOKEN_CHAR.test(text[end] ?? '');
    if (!standsAlone) continue;
    out += text.slice(copied, at) + MASK;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** For tests: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear();
}
