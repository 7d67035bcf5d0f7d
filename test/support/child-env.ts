/**
 * The environment a test's child process starts with: the test runner's own, minus what a
 * developer's shell may carry that aivis reads (`AIVIS_API_KEY` as the README suggests,
 * `AIVIS_LOG_LEVEL`, `AIVIS_DEBUG`, `OPENLINEAGE_*`, the proxy variables), so a test sees
 * only what it passes. `AIVIS_TEST_*` (the suite's own settings) stay.
 */
const LEAKS = /^(?:AIVIS_(?!TEST_)|OPENLINEAGE_|(?:HTTPS?|ALL|NO)_PROXY$)/i;

/** `process.env` without the variables above, then `explicit` on top (it may set them again). */
export function childEnv(explicit: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !LEAKS.test(name)));
  return { ...inherited, ...explicit };
}
