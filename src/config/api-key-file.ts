/**
 * A key read from a file (a mounted Kubernetes Secret, a Docker secret): a workspace's
 * `api_key_file` (`source.api_key_file`, `sources.NAME.api_key_file`) or the lineage
 * endpoint's `openlineage.transport.auth.apiKeyFile`, trimmed of the newline editors and `kubectl create secret` leave behind. A key
 * file every local user can read is worth a warning (not an error: the key still works).
 */
import { stat } from 'node:fs/promises';
import { formatPath } from '../../schemas/format-issues.ts';
import { readSmallFile } from '../files/small-file.ts';
import { registerSecret } from '../log/redact.ts';
import type { ConfigIssue, ConfigPath } from './config-issue.ts';
import { resolveFrom } from './config-paths.ts';
import { valueAt } from './data-path.ts';
import { describeReadFailure } from './read-failure.ts';
import type { LineOf } from './yaml-positions.ts';

/**
 * The most a key file may hold: an API key is well under 1 KiB; a PEM-sized secret still fits.
 * A FIFO, a device or a larger file is refused unread (`readSmallFile`).
 */
export const MAX_KEY_FILE_BYTES = 64 * 1024;

/** What reading the key file gave: the key, an issue, or nothing when no file is configured. */
export interface ApiKeyFileResult {
  apiKey?: string;
  issue?: ConfigIssue;
  /** Set when the file is readable by every user (the "others" read bit). */
  warning?: string;
}

/**
 * Reads the key file named at `keyFilePath` in the raw config data (e.g.
 * `['source', 'api_key_file']`), relative to the config's folder.
 */
export async function readApiKeyFile(
  data: unknown,
  keyFilePath: ConfigPath,
  configDir: string,
  lineOf: LineOf,
): Promise<ApiKeyFileResult> {
  const file = valueAt(data, keyFilePath);
  if (typeof file !== 'string' || file === '') return {};
  const resolved = resolveFrom(configDir, file);
  const where = formatPath(keyFilePath);
  const issue = (problem: string): ApiKeyFileResult => ({
    issue: { path: keyFilePath, line: lineOf(keyFilePath), message: `${where} ${resolved} ${problem}` },
  });
  let text: string;
  try {
    text = await readSmallFile(resolved, MAX_KEY_FILE_BYTES);
  } catch (error) {
    return issue(`cannot be read (${describeReadFailure(error)})`);
  }
  const apiKey = text.trim();
  if (apiKey === '') return issue('is empty; it must hold the API key');
  registerSecret(apiKey);
  const warning = await worldReadable(resolved, where);
  return { apiKey, ...(warning ? { warning } : {}) };
}

/**
 * Only the "others" bit counts: group read is how Kubernetes gives a non-root container its
 * Secret (`defaultMode: 0440` with `fsGroup`). Windows has no such bits.
 */
async function worldReadable(file: string, where: string): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  const mode = (await stat(file)).mode & 0o777;
  if ((mode & 0o004) === 0) return undefined;
  return `${where} ${file} is readable by every user of this machine (mode 0${mode.toString(8)}): chmod o-r it (600 or 400), or mount the Secret with defaultMode 0400 (0440 with fsGroup)`;
}
