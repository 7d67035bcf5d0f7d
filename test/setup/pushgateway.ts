/**
 * vitest global setup: one real Prometheus Pushgateway (Debian's `prometheus-pushgateway`,
 * which `.ci/run` installs) for the whole test run, started like PostgreSQL: on 127.0.0.1, a
 * free port, nothing persisted. Tests read its URL with `inject('pushgatewayUrl')` and push
 * under a workspace name of their own, so files can run in parallel.
 */
import { spawn } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { until } from '../support/until.ts';
import { freePort } from './free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pushgatewayUrl: string;
  }
}

const BINARY = 'prometheus-pushgateway';
/** A gateway that has not answered by then is not going to: the run fails naming it instead of hanging. */
const READY_LIMIT_MS = 30_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const gateway = await startPushgateway();
  project.provide('pushgatewayUrl', gateway.url);
  return gateway.stop;
}

/** A gateway of its own, e.g. one behind basic auth (`--web.config.file`), for a test that needs it. */
export async function startPushgateway(args: readonly string[] = []): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = spawn(
    BINARY,
    [`--web.listen-address=127.0.0.1:${port}`, '--persistence.file=', '--log.level=warn', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  gateway.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<never>((_, reject) => {
    gateway.once('error', (error) =>
      reject(new Error(`${BINARY} cannot be started (${error.message}): apt-get install prometheus-pushgateway`)),
    );
    gateway.once('exit', (code) => reject(new Error(`${BINARY} exited with ${code}: ${stderr}`)));
  });
  await Promise.race([ready(url), exited]);
  return {
    url,
    async stop() {
      gateway.removeAllListeners('exit');
      // A gateway that died during the run has already closed: nothing to stop or wait for.
      if (gateway.exitCode !== null || gateway.signalCode !== null) return;
      const closed = new Promise((resolve) => gateway.once('close', resolve));
      gateway.kill('SIGTERM');
      await closed;
    },
  };
}

/** Polls `/-/ready` until the gateway answers (it starts in milliseconds); behind basic auth, a 401 is an answer. */
async function ready(url: string): Promise<void> {
  const answers = async () => {
    try {
      const response = await fetch(`${url}/-/ready`);
      return response.ok || response.status === 401;
    } catch {
      return false; // not listening yet
    }
  };
  await until(answers, `${BINARY} to answer ${url}/-/ready`, READY_LIMIT_MS);
}
