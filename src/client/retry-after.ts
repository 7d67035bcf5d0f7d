/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Whatever a server or proxy
 * sends, the answer is a wait in milliseconds or `undefined` ("no usable value", so the caller
 * falls back to its own backoff). Refusing waits that are too long is the retry policy's job.
 */

/** IMF-fixdate, the form servers must send: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** Obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC_850 = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
/** Obsolete asctime form, implicitly GMT: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * @param value the header as undici gives it (a repeated header arrives as an array: the first wins)
 * @param nowMs the clock an HTTP-date is measured against
 * @returns milliseconds to wait (0 for a date in the past), or undefined for absent, negative or garbage
 * @example parseRetryAfter('120', now) // 120_000
 * @example parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now) // 0 (in the past)
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  // Fractions are not in the RFC, but some servers send them; rounding up never retries early.
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date =
    IMF_FIXDATE.test(text) || RFC_850.test(text)
      ? Date.parse(text)
      : ASCTIME.test(text)
        ? Date.parse(`${text} GMT`)
        : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
