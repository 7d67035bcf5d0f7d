/**
 * Secrets never appear in logs, errors, tables or snapshots (design §5). Every secret the
 * process learns (API key, database password, private key passphrase) is registered here
 * once, and every line the process writes passes through `redact`.
 */

const MASK = '[REDACTED]';
const secrets = new Set<string>();

/** Registers a secret; values shorter than 4 characters are ignored (they would mask noise). */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < 4) return;
  secrets.add(value);
  // A JSON log line carries the secret escaped (a quote or backslash in a password): mask that form too.
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) secrets.add(escaped);
}

/** Replaces every registered secret, and any bearer token, in `text`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  return out.replace(/(Bearer\s+)[^\s"',]+/gi, `$1${MASK}`);
}

/** For tests: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear();
}
