/**
 * The engine's messages in the words of the JSON config (docs/protocols.md#config): the API
 * client and the guards name the YAML config's keys (`source.api_key`, `source.base_url`, ...),
 * which a protocol user does not have. Each message a protocol mode prints or logs passes
 * through here: `check source.api_key or source.api_key_file` reads `check api_key`.
 */
const CONFIG_TERMS: readonly (readonly [RegExp, string])[] = [
  [/source\.api_key or source\.api_key_file/g, 'api_key'],
  [/source\.(api_key|base_url|requests_per_minute)\b/g, '$1'],
  // Not a key of the JSON config: the budget is the default one.
  [/ \(source\.retry_budget_seconds(?:: [^)]*)?\)/g, ''],
];

export function inConfigTerms(message: string): string {
  return CONFIG_TERMS.reduce((text, [pattern, words]) => text.replace(pattern, words), message);
}
