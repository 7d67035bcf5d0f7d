/**
 * A fake clock for the real CLI process: loaded with `node --import` when a test sets
 * `AIVIS_TEST_NOW` (`runCli`'s `now`), it shifts the process's `Date` so the process starts at
 * that instant and time then passes at its real pace. aivis's run start, `_synced_at` and
 * change-driven plan (docs/configuration.md#change-driven-reads) read that clock, so a test
 * moves the CLI's time with the sandbox's pinned data time, without sleeping; timers and the
 * rate limiter keep their real durations (only the origin moves).
 */
const at = process.env.AIVIS_TEST_NOW;
if (at !== undefined) {
  const RealDate = Date;
  const offset = RealDate.parse(at) - RealDate.now();
  if (Number.isNaN(offset)) throw new Error(`AIVIS_TEST_NOW ${JSON.stringify(at)} is not a timestamp`);
  const ShiftedDate = class extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  };
  globalThis.Date = ShiftedDate as DateConstructor;
}
