/**
 * Sweep slots (docs/configuration.md#change-driven-reads): under `skip_unchanged` an unchanged
 * website is still read whole once per `sweep_every`, at its own slot. The slot is an offset
 * within `sweep_every` taken from a hash of workspace and website id, anchored at the Unix
 * epoch, so the slots of many websites fall evenly over the period whatever the run schedule,
 * and a website's slot never moves between runs or machines.
 */
import { createHash } from 'node:crypto';

/** The website's slot: milliseconds after each multiple of `sweepEveryMs` since the epoch. */
export function sweepSlotMs(workspace: string, websiteId: string, sweepEveryMs: number): number {
  const digest = createHash('sha256').update(`${workspace}\u0000${websiteId}`).digest();
  // 48 bits of the digest: uniform enough for any period a clock can count in milliseconds.
  return digest.readUIntBE(0, 6) % sweepEveryMs;
}

/** The first slot strictly after `lastReadMs`: when a website last read whole then is due again. */
export function sweepDueAtMs(lastReadMs: number, slotMs: number, sweepEveryMs: number): number {
  const periods = Math.floor((lastReadMs - slotMs) / sweepEveryMs) + 1;
  return slotMs + periods * sweepEveryMs;
}
