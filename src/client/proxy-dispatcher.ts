/**
 * What the API client's requests go through: undici's `EnvHttpProxyAgent`, which honours
 * `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` (the lower-case names win; an https origin falls
 * back to the HTTP proxy when no HTTPS proxy is set) and tunnels https with CONNECT. A
 * loopback origin (the sandbox, a local tunnel) goes direct: a proxy elsewhere cannot reach
 * this machine's loopback. See docs/configuration.md#proxies.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { isLoopbackHost } from '../../schemas/insecure-http.ts';
import { ConfigError } from '../errors.ts';
import { registerSecret } from '../log/redact.ts';

/** The variables that name a proxy; of each pair undici reads the first one that is set. */
const PROXY_VARIABLES = [
  ['http_proxy', 'HTTP_PROXY'],
  ['https_proxy', 'HTTPS_PROXY'],
] as const;

/**
 * @param origin the API origin; decides between direct and the proxy variables
 * @param options undici Agent options, passed to the proxy agents as well
 * @throws ConfigError (exit 2) naming a proxy variable that is not an http(s) URL
 */
export function createDispatcher(origin: URL, options: Agent.Options): Dispatcher {
  if (isLoopbackHost(origin.hostname)) return new Agent(options);
  for (const pair of PROXY_VARIABLES) {
    const name = pair.find((candidate) => process.env[candidate] !== undefined);
    if (name !== undefined) checkProxyVariable(name, process.env[name]);
  }
  return new EnvHttpProxyAgent(options);
}

/** A proxy URL's password is a secret like the API key; a value undici would refuse is a usage error. */
function checkProxyVariable(name: string, value: string | undefined): void {
  if (!value) return;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.password) {
    registerSecret(url.password);
    registerSecret(decodeURIComponent(url.password));
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new ConfigError(
      `${name} is not a proxy URL: write it with its scheme, e.g. ${name}=http://proxy.internal:3128 (user:password@ may precede the host)`,
    );
  }
}
