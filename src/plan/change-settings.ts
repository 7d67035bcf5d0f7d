/**
 * `skip_unchanged`, `sweep_every` and `settle_for` of a workspace's source block (or the
 * Airbyte/Singer JSON config) in milliseconds: what the read planner works with.
 */

/** `30s`, `90m`, `24h`, `2d`: a whole number and one unit. */
export const DURATION_PATTERN = /^(\d+)([smhd])$/;

const MS_PER_UNIT = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const DEFAULT_SWEEP_EVERY = '24h';
export const DEFAULT_SETTLE_FOR = '2h';

export interface ChangeSettings {
  /** False: every website in scope is read every run (the default, as before). */
  readonly skipUnchanged: boolean;
  readonly sweepEveryMs: number;
  readonly settleForMs: number;
}

/** The settings as written in a config block (their defaults where absent). */
export interface ChangeSettingsInput {
  readonly skip_unchanged?: boolean | undefined;
  readonly sweep_every?: string | undefined;
  readonly settle_for?: string | undefined;
}

/** Milliseconds of a DURATION the config schema already checked. */
export function durationMs(text: string): number {
  const match = DURATION_PATTERN.exec(text);
  if (!match) throw new RangeError(`"${text}" is not a duration such as 90m, 24h or 2d`);
  return Number(match[1]) * MS_PER_UNIT[match[2] as keyof typeof MS_PER_UNIT];
}

export function changeSettings(block: ChangeSettingsInput | undefined): ChangeSettings {
  return {
    skipUnchanged: block?.skip_unchanged ?? false,
    sweepEveryMs: durationMs(block?.sweep_every ?? DEFAULT_SWEEP_EVERY),
    settleForMs: durationMs(block?.settle_for ?? DEFAULT_SETTLE_FOR),
  };
}
