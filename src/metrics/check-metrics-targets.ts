/**
 * What `aivis check` can prove about `metrics:` before a run needs it: the Pushgateway answers
 * its readiness probe, the textfile's folder is writable. A failure here is a warning, as at
 * the end of a run: metrics never cost a run.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { MetricsConfig } from '../../schemas/metrics-config.ts';
import { maskUrlCredentials } from '../log/redact.ts';
import { PUSH_TIMEOUT_MS } from './pushgateway-push.ts';

export interface TargetCheck {
  readonly ok: boolean;
  readonly text: string;
}

export async function checkMetricsTargets(metrics: MetricsConfig): Promise<TargetCheck[]> {
  const checks: TargetCheck[] = [];
  if (metrics.pushgateway) checks.push(await checkPushgateway(metrics.pushgateway));
  if (metrics.textfile) checks.push(await checkTextfile(metrics.textfile));
  return checks;
}

async function checkPushgateway(url: string): Promise<TargetCheck> {
  const named = `metrics: Pushgateway ${maskUrlCredentials(url)}`;
  try {
    const ready = new URL('-/ready', url.endsWith('/') ? url : `${url}/`);
    const response = await fetch(withoutCredentials(ready), {
      headers: basicAuthorization(ready),
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) return { ok: true, text: `${named}: ready` };
    return { ok: false, text: `${named}: answered HTTP ${response.status} to /-/ready; runs will warn and go on` };
  } catch (error) {
    const why = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { ok: false, text: `${named}: not reachable (${why}); runs will warn and go on` };
  }
}

/**
 * The URL's `user:password` as the `Authorization` header a push sends (prom-client passes
 * them to http.request): fetch refuses a URL that carries credentials.
 */
function basicAuthorization(url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return {};
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function withoutCredentials(url: URL): URL {
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  return bare;
}

async function checkTextfile(file: string): Promise<TargetCheck> {
  const folder = path.dirname(file);
  try {
    await access(folder, constants.W_OK);
    return { ok: true, text: `metrics: textfile ${file}: its folder is writable` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      ok: false,
      text: `metrics: textfile ${file}: its folder ${folder} is not writable (${code}); runs will warn and go on`,
    };
  }
}
