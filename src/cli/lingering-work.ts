/**
 * Work a command gave up waiting for (docs/served-contract.md#where-evolved-columns-show): a destination's SDK
 * still connecting after the command's deadline may keep Node's event loop alive for a minute
 * or more, and closing it does not always stop it. A command that abandons such work says so
 * here; the process entry (`run` in main.ts) then ends the process once the command's output is
 * written, instead of waiting for the SDK.
 */
let abandoned = false;

/** Marks the run as having work it no longer waits for. */
export function abandonLingeringWork(): void {
  abandoned = true;
}

/** Whether a command abandoned work that may keep the process alive. */
export function hasLingeringWork(): boolean {
  return abandoned;
}
