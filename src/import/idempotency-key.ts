/**
 * The `Idempotency-Key` of one operation: a hash of website, body and attempt number. The
 * same partition of the same file gets the same key in every run (a re-run replays instead
 * of importing twice), and a retryable failure's fresh operation (attempt + 1) a new one.
 * 70 visible ASCII characters, inside the spec's 16 to 255.
 */
import { createHash } from 'node:crypto';

export function idempotencyKey(websiteId: string, bodySha256: string, attempt: number): string {
  return `aivis-${createHash('sha256').update(`${websiteId}\n${bodySha256}\n${attempt}`).digest('hex')}`;
}
