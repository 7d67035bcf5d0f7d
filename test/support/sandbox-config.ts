/** A config file as a user writes one for the sandbox: its URL, the key from `AIVIS_API_KEY`, then `destination` lines. */
import { writeFileSync } from 'node:fs';

export function writeSandboxConfig(file: string, baseUrl: string, destination: readonly string[]): string {
  const source = ['source:', `  base_url: ${baseUrl}`, '  api_key: ${AIVIS_API_KEY}', '  requests_per_minute: 100'];
  writeFileSync(file, [...source, 'destination:', ...destination, ''].join('\n'), { mode: 0o644 });
  return file;
}
