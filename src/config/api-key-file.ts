/**
 * `source.api_key_file`: the key read from a file (a mounted Kubernetes Secret, a Docker
 * secret), trimmed of the newline editors and `kubectl create secret` leave behind.
 */
import { readFile } from 'node:fs/promises';
import { registerSecret } from '../log/redact.ts';
import type { ConfigIssue, ConfigPath } from './config-issue.ts';
import { resolveFrom } from './config-paths.ts';
import { valueAt } from './data-path.ts';
import { describeReadFailure } from './read-failure.ts';
import type { LineOf } from './yaml-positions.ts';

const KEY_FILE_PATH: ConfigPath = ['source', 'api_key_file'];

/** What reading the key file gave: the key, an issue, or nothing when no file is configured. */
export interface ApiKeyFileResult {
  apiKey?: string;
  issue?: ConfigIssue;
}

/** Reads the key file named in the raw config data, relative to the config's folder. */
export async function readApiKeyFile(data: unknown, configDir: string, lineOf: LineOf): Promise<ApiKeyFileResult> {
  const file = valueAt(data, KEY_FILE_PATH);
  if (typeof file !== 'string' || file === '') return {};
  const resolved = resolveFrom(configDir, file);
  const issue = (problem: string): ApiKeyFileResult => ({
    issue: { path: KEY_FILE_PATH, line: lineOf(KEY_FILE_PATH), message: `source.api_key_file ${resolved} ${problem}` },
  });
  let text: string;
  try {
    text = await readFile(resolved, 'utf8');
  } catch (error) {
    return issue(`cannot be read (${describeReadFailure(error)})`);
  }
  const apiKey = text.trim();
  if (apiKey === '') return issue('is empty; it must hold the API key');
  registerSecret(apiKey);
  return { apiKey };
}
