/**
 * The deadline of `keptContractTables` (docs/served-contract.md#where-evolved-columns-show): a
 * destination that never answers (an SDK still connecting) costs the bundled columns and one
 * warning once the deadline passes, and the run is marked to end without waiting for it. The
 * clock is vitest's: no real waiting.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { KEPT_CONTRACT_DEADLINE_MS, keptContractTables } from '../../src/cli/kept-contract-tables.ts';
import { hasLingeringWork } from '../../src/cli/lingering-work.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { createLogger } from '../../src/log/logger.ts';
import { citationsTable } from '../../src/tables/index.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('a destination that never answers: the bundled columns and one warning at the deadline, the process ends after', async () => {
  let closed = 0;
  // What an SDK still retrying its connection looks like from outside: an open that never settles.
  const silent = {
    type: 'snowflake',
    open: () => new Promise<void>(() => undefined),
    close: async () => void closed++,
  } as unknown as Destination;
  const lines: string[] = [];
  let settled = false;
  const shown = keptContractTables([citationsTable], {
    destination: silent,
    workspaces: ['default'],
    mode: 'evolve',
    maxColumns: 200,
    logger: createLogger({ write: (line) => lines.push(line) }),
  }).finally(() => (settled = true));

  await vi.advanceTimersByTimeAsync(KEPT_CONTRACT_DEADLINE_MS - 1);
  expect({ settled, lines, lingering: hasLingeringWork() }).toEqual({ settled: false, lines: [], lingering: false });
  await vi.advanceTimersByTimeAsync(1);
  expect(await shown).toEqual([citationsTable]);
  expect(lines.map((line) => JSON.parse(line))).toEqual([
    {
      ts: expect.any(String),
      level: 'warn',
      msg: "showing the bundled contract's columns: the destination did not answer within 10 s",
      destination: 'snowflake',
    },
  ]);
  expect(hasLingeringWork()).toBe(true);
  // Closing waits for the open, which never ends: the process entry ends the process instead.
  expect(closed).toBe(0);
});
