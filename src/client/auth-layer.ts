/**
 * Bearer authentication (spec part 5) on every attempt. The key is registered as a secret here,
 * where it enters the client, so every log line and error message written afterwards masks it.
 */
import { ConfigError } from '../errors.ts';
import { registerSecret } from '../log/redact.ts';
import type { Send } from './http-exchange.ts';

export function withBearerAuth(next: Send, apiKey: string): Send {
  registerSecret(apiKey);
  if (apiKey.trim() === '') throw new ConfigError('the API key is empty: set source.api_key or source.api_key_file');
  // Checked here rather than left to undici, whose header error would quote the value.
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError(
      'the API key contains spaces, line breaks or non-ASCII characters: check source.api_key or source.api_key_file',
    );
  }
  const authorization = `Bearer ${apiKey}`;
  return (request) => next({ ...request, headers: { ...request.headers, authorization } });
}
