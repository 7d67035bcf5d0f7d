/**
 * `source.base_url`: the API origin, optionally behind a path prefix (a gateway). The client
 * appends `/public/v2/...` itself, so a URL that already ends in `/public/v2` would double it.
 */
import { ConfigError } from '../errors.ts';

export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(
      `source.base_url is not a URL (got ${JSON.stringify(text)}); use e.g. https://api.example.com`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(
      `source.base_url must be an http(s) URL such as https://api.example.com (got ${url.protocol} URL)`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'source.base_url must not carry credentials; put the key in source.api_key or source.api_key_file',
    );
  }
  if (/\/public\/v[0-9]+\/?$/.test(url.pathname)) {
    throw new ConfigError(
      `source.base_url must stop before the API version path: use ${url.origin} (the client adds /public/v2)`,
    );
  }
  return url;
}
