/**
 * The `Idempotency-Key` of one operation: a hash of website, body and attempt number. The
 * same partition of the same file gets the same key in every run (a re-run replays instead
 * of importing twice), and a retryable failure's fresh operation (attempt + 1) a new one.
 * 70 visible ASCII characters, inside the spec's 16 to 255.
 *
 * `salt` is empty for writes. A validation is a point-in-time answer, so each validation
 * journal salts its keys with its creation time: resuming it replays, while validating again
 * later with a new journal asks the service afresh instead of replaying a stale answer.
 */
import { createHash } from 'node:crypto';

export function idempotencyKey(websiteId: string, bodySha256: string, attempt: number, salt = ''): string {
  return `aivis-${createHash('sha256').update(`${websiteId}\n${bodySha256}\n${attempt}\n${salt}`).digest('hex')}`;
}
