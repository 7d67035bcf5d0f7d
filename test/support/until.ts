/**
 * Waits for something another process does (a row committed, a request received), checking
 * on every turn of the event loop: no fixed sleeps. The limit only turns a hang into a
 * failure that names what never happened.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
