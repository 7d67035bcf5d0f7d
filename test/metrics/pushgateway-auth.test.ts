/**
 * A Pushgateway behind basic auth (the real gateway, its `--web.config.file`), its user and
 * password in the configured URL: `aivis check` finds it ready, as the pushes of a run do,
 * and never prints the password.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMetricsTargets } from '../../src/metrics/check-metrics-targets.ts';
import { pushRunMetrics } from '../../src/metrics/pushgateway-push.ts';
import { startPushgateway } from '../setup/pushgateway.ts';

const PASSWORD = 'gateway-pw-7c41';
/** bcrypt of PASSWORD (cost 4), as the gateway's web config wants it. */
const PASSWORD_HASH = '$2b$04$NyNXJw1fx6HTK0y1qCT.Deer56bXc8ftTddvFE.6VRG1YQO9MU9Tu';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-gateway-auth-'));
let gateway: Awaited<ReturnType<typeof startPushgateway>>;
const withCredentials = (password: string) => {
  const url = new URL(gateway.url);
  url.username = 'aivis';
  url.password = password;
  return url.href;
};

beforeAll(async () => {
  const webConfig = path.join(dir, 'web.yml');
  writeFileSync(webConfig, `basic_auth_users:\n  aivis: ${PASSWORD_HASH}\n`);
  gateway = await startPushgateway([`--web.config.file=${webConfig}`]);
});
afterAll(async () => {
  await gateway?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a Pushgateway behind basic auth', () => {
  it('check finds it ready with the URL’s credentials, as a push does, and names it without the password', async () => {
    const url = withCredentials(PASSWORD);
    await pushRunMetrics(url, 'gateway_auth', []);
    const [check] = await checkMetricsTargets({ pushgateway: url });
    expect(check).toEqual({ ok: true, text: expect.stringMatching(/^metrics: Pushgateway http:\/\/aivis:.*: ready$/) });
    expect(check?.text).not.toContain(PASSWORD);
  });

  it('a wrong password is the gateway’s 401, not "unreachable"', async () => {
    await expect(pushRunMetrics(withCredentials('not-the-password'), 'gateway_auth', [])).rejects.toThrow(/401/);
    const [check] = await checkMetricsTargets({ pushgateway: withCredentials('not-the-password') });
    expect(check?.ok).toBe(false);
    expect(check?.text).toMatch(/answered HTTP 401 to \/-\/ready; runs will warn and go on$/);
    expect(check?.text).not.toContain('not-the-password');
  });
});
