/**
 * `streams:` entries without settings. YAML reads
 *
 *     streams:
 *       websites:
 *       mentions:
 *
 * as `websites: null`; a data engineer means "this stream, default settings", so such an
 * entry is taken as `{}` before validation.
 */

export function expandStreamShorthand(data: unknown): void {
  const streams = (data as { streams?: unknown } | null)?.streams;
  if (streams === null || typeof streams !== 'object' || Array.isArray(streams)) return;
  const entries = streams as Record<string, unknown>;
  for (const name of Object.keys(entries)) {
    if (entries[name] === null) entries[name] = {};
  }
}
