/**
 * One problem found in a config file, and the `ConfigError` that reports them all at once,
 * one per line, in the `file:line: message` form editors and CI logs can jump to.
 */
import { ConfigError } from '../errors.ts';
import { redact } from '../log/redact.ts';

/** A path into the config data: keys of mappings and indexes of lists. */
export type ConfigPath = readonly (string | number)[];

/** A problem with the config, tied to the line of the key it is about. */
export interface ConfigIssue {
  /** Where in the config data, e.g. `['source', 'requests_per_minute']`. */
  path: ConfigPath;
  /** 1-based line in the YAML file. */
  line: number;
  /** The words the user reads, without the `file:line:` prefix. */
  message: string;
}

/** True when `path` is `prefix` or lies under it. */
export function isUnder(path: ConfigPath, prefix: ConfigPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/**
 * One error for every issue, sorted by line, duplicates dropped. The text is redacted
 * (secrets are registered before validation), so a key that leaked into a value never prints.
 */
export function configErrorOf(file: string, issues: readonly ConfigIssue[]): ConfigError {
  const lines = [...issues].sort((a, b) => a.line - b.line).map((issue) => `${file}:${issue.line}: ${issue.message}`);
  return new ConfigError(redact([...new Set(lines)].join('\n')));
}
