/** One run at a time per schema, and a refusal that names the holder. */
import { expect } from 'vitest';
import { LockHeldError } from '../../../src/errors.ts';
import { owner } from '../fixtures.ts';
import { conformanceTest } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';

export function locksTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'locks',
    'a second acquireLock throws LockHeldError naming the holder',
    async ({ destination, schema, another }) => {
      const lock = await destination.acquireLock(owner('run-1', 1111));
      const second = await another();
      const refusal = second.acquireLock(owner('run-2', 2222));
      await expect(refusal).rejects.toBeInstanceOf(LockHeldError);
      await expect(refusal).rejects.toThrow(
        `another aivis run holds the lock on schema "${schema}": run run-1 on conformance-host pid 1111 since 2026-03-01T12:00:00.000Z`,
      );
      await lock.release();
    },
  );

  conformanceTest(
    target,
    'locks',
    'release then acquire works, and release is safe twice',
    async ({ destination, another }) => {
      const first = await destination.acquireLock(owner('run-1', 1111));
      await first.release();
      await first.release();
      const second = await another();
      const lock = await second.acquireLock(owner('run-2', 2222));
      await expect(destination.acquireLock(owner('run-3', 3333))).rejects.toThrow(
        'run run-2 on conformance-host pid 2222',
      );
      await lock.release();
      const again = await destination.acquireLock(owner('run-3', 3333));
      await again.release();
    },
  );

  conformanceTest(
    target,
    'locks',
    'runs of different workspaces hold their locks at once; the same workspace twice is refused, naming it',
    async ({ destination, schema, another }) => {
      const second = await another();
      const a = await destination.acquireLock(owner('run-a', 1111, 'agency-a'));
      const b = await second.acquireLock(owner('run-b', 2222, 'agency-b'));
      const third = await another();
      await expect(third.acquireLock(owner('run-c', 3333, 'agency-a'))).rejects.toThrow(
        `another aivis run holds the lock on schema "${schema}" for workspace "agency-a": run run-a on conformance-host pid 1111 since 2026-03-01T12:00:00.000Z`,
      );
      await a.release();
      await b.release();
    },
  );
}
