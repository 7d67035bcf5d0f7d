/**
 * A hostile served contract under the protocols, as docs/protocols.md says: `aivis airbyte
 * discover`, `tap-aivis --discover` and `aivis airbyte read` warn once on stderr and go on
 * under the bundled contract (its columns, every record), exit 0, within the image's heap.
 * Real processes against the sandbox over loopback.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type SandboxVariant, startSandbox } from '../../src/sandbox/index.ts';
import { type CliResult, runCli } from '../support/cli-process.ts';
import { backtrackingSandbox, HOSTILE_CONTRACTS, IMAGE_ENV, UNUSABLE } from '../support/hostile-contracts.ts';
import { airbyteMessages } from '../support/protocol-messages.ts';
import { catalogFile, configFile, finished, latestRows, truthRows } from './protocol-world.ts';

/** The contract warnings of a process's JSON log lines. */
const contractWarnings = (stderr: string) =>
  stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((line) => line.level === 'warn' && line.msg.includes('contract'))
    .map((line) => line.msg);

/** `aivis airbyte <args>` or `tap-aivis <args>`, given the config file's path. */
type Run = (entry: 'airbyte' | 'tap', args: (config: string) => string[]) => Promise<CliResult>;

/** Runs `use` against a sandbox with these variants, each process under the image's settings. */
async function withSandbox<T>(variants: SandboxVariant[], use: (run: Run) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ seed: 11, websites: 2, requestsPerMinute: 0, variants });
  const run: Run = (entry, args) =>
    finished(
      sandbox,
      entry === 'airbyte'
        ? runCli(['airbyte', ...args(configFile(sandbox))], IMAGE_ENV).done
        : runCli(args(configFile(sandbox)), IMAGE_ENV, { entry: 'src/cli/tap-main.ts' }).done,
    );
  try {
    return await use(run);
  } finally {
    await sandbox.close();
  }
}

/** What discover prints under the bundled contract (a sandbox serving it). */
let bundled: { airbyte: string; tap: string };
beforeAll(async () => {
  bundled = await withSandbox([], async (run) => ({
    airbyte: (await run('airbyte', (config) => ['discover', '--config', config])).stdout,
    tap: (await run('tap', (config) => ['--config', config, '--discover'])).stdout,
  }));
});

describe.each(HOSTILE_CONTRACTS)('%s', (variant, reason) => {
  const warning = `${UNUSABLE}: ${reason}; using the bundled contract`;
  const results: Record<string, CliResult> = {};
  let truth: ReturnType<typeof truthRows>;
  beforeAll(async () => {
    await withSandbox([variant], async (run) => {
      results.discover = await run('airbyte', (config) => ['discover', '--config', config]);
      results.tap = await run('tap', (config) => ['--config', config, '--discover']);
      results.read = await run('airbyte', (config) => [
        'read',
        '--config',
        config,
        '--catalog',
        catalogFile(['mentions']),
      ]);
    });
    // The same world (seed 11) without the variant: the contract changes no record.
    const sandbox = await startSandbox({ seed: 11, websites: 2, requestsPerMinute: 0 });
    truth = truthRows(sandbox);
    await sandbox.close();
  });

  it('airbyte discover: one warning, the bundled catalog, exit 0', () => {
    const { code, stdout, stderr } = results.discover!;
    expect({ code, warnings: contractWarnings(stderr) }).toEqual({ code: 0, warnings: [warning] });
    expect(stdout).toBe(bundled.airbyte);
  });

  it('tap-aivis --discover: one warning, the bundled catalog, exit 0', () => {
    const { code, stdout, stderr } = results.tap!;
    expect({ code, warnings: contractWarnings(stderr) }).toEqual({ code: 0, warnings: [warning] });
    expect(stdout).toBe(bundled.tap);
  });

  it('airbyte read: one warning, every record, no error TRACE, COMPLETE, exit 0', () => {
    const { code, stdout, stderr } = results.read!;
    expect({ code, warnings: contractWarnings(stderr) }).toEqual({ code: 0, warnings: [warning] });
    const messages = airbyteMessages(stdout);
    expect(messages.filter((m) => m.trace?.error)).toEqual([]);
    expect(messages.flatMap((m) => (m.trace?.stream_status ? [m.trace.stream_status.status] : []))).toEqual([
      'STARTED',
      'RUNNING',
      'COMPLETE',
    ]);
    const records = messages.flatMap((m) => (m.record ? [m.record] : []));
    expect(latestRows(records).get('mentions')).toEqual(truth.get('mentions'));
  });
});

/**
 * A served `^(a+)+$` that a record's text would drive through 2^5,000 steps in a backtracking
 * engine: the record is rejected at once (a string is not the boolean the bundled contract
 * wants, nor a match), the read goes on, exit 0. A stall would end in this test's timeout.
 */
describe('contract_backtracking_pattern', () => {
  it.each(['airbyte', 'tap'] as const)(
    '%s read: the record rejected with one warning each, the others emitted, exit 0',
    async (entry) => {
      const sandbox = await backtrackingSandbox();
      try {
        const config = configFile(sandbox);
        const result =
          entry === 'airbyte'
            ? await finished(
                sandbox,
                runCli(['airbyte', 'read', '--config', config, '--catalog', catalogFile(['mentions'])], IMAGE_ENV).done,
              )
            : await finished(sandbox, runCli(['--config', config], IMAGE_ENV, { entry: 'src/cli/tap-main.ts' }).done);
        expect(result.code).toBe(0);
        const rejected = result.stderr
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { level: string; msg: string; stream?: string; error?: string })
          .filter((line) => line.msg === 'record rejected: it is not emitted');
        expect(rejected.length).toBeGreaterThan(0);
        for (const line of rejected) {
          expect(line.stream).toBe('mentions');
          expect(line.error).toContain('sentence_text_truncated');
        }
        const emitted = result.stdout
          .split('\n')
          .filter(Boolean)
          .map(
            (line) =>
              JSON.parse(line) as {
                type: string;
                stream?: string;
                record?: { stream?: string; data?: { id: string } };
              },
          )
          .flatMap((m) =>
            m.type !== 'RECORD'
              ? []
              : entry === 'airbyte'
                ? [m.record!.data!.id]
                : m.stream === 'mentions'
                  ? [(m.record as unknown as { id: string }).id]
                  : [],
          );
        const truth = truthRows(sandbox)
          .get('mentions')!
          .map((row) => row.id);
        expect(new Set(emitted).size).toBe(truth.length - rejected.length);
        for (const id of emitted) expect(truth).toContain(id);
      } finally {
        await sandbox.close();
      }
    },
  );
});
