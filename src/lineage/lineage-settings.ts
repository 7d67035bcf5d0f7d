/**
 * Where OpenLineage events go, if anywhere (docs/architecture.md#lineage-and-metrics). The
 * config's `openlineage:` block wins; without it the ecosystem's variables configure an http
 * transport, as the OpenLineage clients read them, so a pod Airflow already configured needs
 * no aivis config: `OPENLINEAGE_URL`, `OPENLINEAGE_ENDPOINT` (default `api/v1/lineage`),
 * `OPENLINEAGE_API_KEY`, `OPENLINEAGE_NAMESPACE` (default `aivis`). `OPENLINEAGE_DISABLED=true`
 * turns everything off. Nothing configured: no events.
 */
import { DEFAULT_LINEAGE_TIMEOUT_SECONDS } from '../../schemas/openlineage-config.ts';
import type { LoadedConfig } from '../config/load-config.ts';
import { ConfigError } from '../errors.ts';
import { registerSecret } from '../log/redact.ts';

export const DEFAULT_LINEAGE_NAMESPACE = 'aivis';
const DEFAULT_ENDPOINT = 'api/v1/lineage';

export type LineageTarget =
  | { readonly type: 'http'; readonly url: URL; readonly timeoutMs: number; readonly apiKey?: string }
  | { readonly type: 'file'; readonly path: string }
  | { readonly type: 'console' };

export interface LineageSettings {
  /** The jobs' namespace. */
  readonly namespace: string;
  readonly target: LineageTarget;
}

/** `url` joined with `endpoint` as the OpenLineage clients join them (one slash between). */
function endpointUrl(url: string, endpoint: string): URL {
  return new URL(`${url.replace(/\/+$/, '')}/${endpoint.replace(/^\/+/, '')}`);
}

function isTrue(value: string | undefined): boolean {
  return ['true', '1', 'yes'].includes((value ?? '').trim().toLowerCase());
}

/** The settings of this process, or undefined when lineage is off. */
export function lineageSettings(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv = process.env,
): LineageSettings | undefined {
  if (isTrue(env.OPENLINEAGE_DISABLED)) return undefined;
  const block = loaded.config.openlineage;
  const namespace = block?.namespace ?? (env.OPENLINEAGE_NAMESPACE || DEFAULT_LINEAGE_NAMESPACE);
  if (block) {
    const { transport } = block;
    if (transport.type !== 'http') return { namespace, target: transport };
    const apiKey = loaded.lineageApiKey;
    return {
      namespace,
      target: {
        type: 'http',
        url: endpointUrl(transport.url, transport.endpoint),
        timeoutMs: transport.timeout * 1000,
        ...(apiKey ? { apiKey } : {}),
      },
    };
  }
  const url = env.OPENLINEAGE_URL;
  if (!url) return undefined;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new ConfigError(`OPENLINEAGE_URL "${url}" is not an http(s) URL such as https://marquez.example.com`);
  const apiKey = env.OPENLINEAGE_API_KEY?.trim();
  registerSecret(apiKey);
  return {
    namespace,
    target: {
      type: 'http',
      url: endpointUrl(url, env.OPENLINEAGE_ENDPOINT || DEFAULT_ENDPOINT),
      timeoutMs: DEFAULT_LINEAGE_TIMEOUT_SECONDS * 1000,
      ...(apiKey ? { apiKey } : {}),
    },
  };
}
