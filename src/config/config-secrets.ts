/**
 * Secrets never come from the YAML text (docs/architecture.md#config): a config file is
 * committed to git and mounted as a ConfigMap, so a key written into it has already leaked.
 * Every workspace's `api_key` (`source.api_key`, `sources.NAME.api_key`), the destination keys its
 * descriptor names as secrets (`destination.password`, `destination.private_key_passphrase`;
 * `connectors/<name>/descriptor.ts`) and `openlineage.transport.auth.apiKey` must be `${VAR}`, and
 * a destination URL may not carry a literal password. Every secret the config yields is
 * registered for redaction before any message is built.
 */
import type { Document, Scalar } from 'yaml';
import type { DestinationRegistry } from '../../connectors/registry.ts';
import { registerSecret } from '../log/redact.ts';
import { formatPath } from '../../schemas/format-issues.ts';
import { isUnder, type ConfigIssue, type ConfigPath } from './config-issue.ts';
import { valueAt } from './data-path.ts';
import { WHOLE_REFERENCE } from './env-substitution.ts';
import { scalarAt, type LineOf } from './yaml-positions.ts';

interface SecretField {
  path: ConfigPath;
  /** How the fixed line reads, e.g. `api_key: ${AIVIS_API_KEY}`. */
  fix: string;
}

const LINEAGE_SECRET_FIELD: SecretField = {
  path: ['openlineage', 'transport', 'auth', 'apiKey'],
  fix: 'put the key in an environment variable and write apiKey: ${OPENLINEAGE_API_KEY}, or point apiKeyFile at a file that holds it',
};

/**
 * The `destination:` keys that hold a secret `in` this way, of every registered destination: a
 * literal secret is refused whichever `type` the block names, since the type may be the mistake.
 */
function destinationSecretFields(registry: DestinationRegistry, kind: 'value' | 'url'): SecretField[] {
  const fields = new Map<string, SecretField>();
  for (const secret of registry.destinations.flatMap((d) => d.secrets)) {
    if (secret.in === kind && !fields.has(secret.key))
      fields.set(secret.key, { path: ['destination', secret.key], fix: secret.fix });
  }
  return [...fields.values()];
}

/** The `api_key` of every source block (`source`, `sources.NAME`), then the destination's and lineage's secrets. */
function secretFields(sourceBlocks: readonly ConfigPath[], registry: DestinationRegistry): SecretField[] {
  const apiKeys = sourceBlocks.map((block) => {
    const workspace = block[1] === undefined ? '' : `_${String(block[1]).toUpperCase().replaceAll('-', '_')}`;
    return {
      path: [...block, 'api_key'],
      fix: `put the key in an environment variable and write api_key: \${AIVIS_API_KEY${workspace}}, or point api_key_file at a file that holds it`,
    };
  });
  return [...apiKeys, ...destinationSecretFields(registry, 'value'), LINEAGE_SECRET_FIELD];
}

const PUSHGATEWAY_PATH: ConfigPath = ['metrics', 'pushgateway'];
/** The password of `scheme://user:password@host`, or a `password=` query parameter. */
const URL_PASSWORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@:]*:([^/@]*)@|[?&]password=([^&]*)/i;

/**
 * The scalars that hold secrets, aliases followed: they stay text whatever `${VAR}` gives
 * (typing `00482913` as a number would both change the secret and put it outside redaction).
 */
export function secretScalars(
  doc: Document,
  sourceBlocks: readonly ConfigPath[],
  registry: DestinationRegistry,
): Set<Scalar> {
  const fields = [...secretFields(sourceBlocks, registry), ...destinationSecretFields(registry, 'url')];
  const paths = fields.map((field) => field.path);
  return new Set(paths.map((path) => scalarAt(doc, path)).filter((scalar) => scalar !== undefined));
}

/**
 * Issues for secrets written as literal text (checked on the raw document, before
 * substitution, through aliases: `api_key: *k` is as literal as the `&k` it names). The
 * literal values are registered too, so they never print anywhere.
 */
export function refuseLiteralSecrets(
  doc: Document,
  lineOf: LineOf,
  sourceBlocks: readonly ConfigPath[],
  registry: DestinationRegistry,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const refuse = (path: ConfigPath, message: string) => issues.push({ path, line: lineOf(path), message });
  for (const { path, fix } of secretFields(sourceBlocks, registry)) {
    const raw = scalarAt(doc, path)?.value;
    if (raw === undefined || raw === null || WHOLE_REFERENCE.test(String(raw))) continue;
    registerSecret(String(raw));
    refuse(
      path,
      `${formatPath(path)} is written into the config file, and secrets are never read from the YAML text: ${fix}`,
    );
  }
  for (const { path, fix } of destinationSecretFields(registry, 'url')) {
    const url = scalarAt(doc, path)?.value;
    const password = typeof url === 'string' ? urlPassword(url) : undefined;
    if (password === undefined || password.includes('${')) continue;
    registerSecret(password);
    registerSecret(safeDecode(password));
    refuse(path, `${formatPath(path)} holds a password, and secrets are never read from the YAML text: ${fix}`);
  }
  return issues;
}

/**
 * Registers every secret of the substituted config data, before it is validated. Values
 * under `unresolved` (a reference whose variable is missing) still hold their `${VAR}`
 * text, which is no secret and must stay readable in the message about it.
 */
export function registerConfigSecrets(
  data: unknown,
  unresolved: readonly ConfigPath[],
  sourceBlocks: readonly ConfigPath[],
  registry: DestinationRegistry,
): void {
  const resolved = (path: ConfigPath) => !unresolved.some((p) => isUnder(path, p));
  for (const { path } of secretFields(sourceBlocks, registry)) {
    const value = valueAt(data, path);
    if (typeof value !== 'string' || !resolved(path)) continue;
    registerSecret(value);
    registerSecret(value.trim()); // the API key is used trimmed
  }
  // The destination URL's password, and a Pushgateway's basic-auth password (`https://u:p@host`).
  for (const path of [...destinationSecretFields(registry, 'url').map((field) => field.path), PUSHGATEWAY_PATH]) {
    const url = valueAt(data, path);
    const password = typeof url === 'string' && resolved(path) ? urlPassword(url) : undefined;
    if (password === undefined) continue;
    registerSecret(password);
    registerSecret(safeDecode(password));
  }
}

function urlPassword(url: string): string | undefined {
  const match = URL_PASSWORD.exec(url);
  const password = match?.[1] ?? match?.[2];
  return password === '' ? undefined : password;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
