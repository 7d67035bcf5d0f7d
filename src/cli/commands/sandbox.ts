/**
 * `aivis sandbox [--port N] [--websites N] [--seed N] [--clock T] [--variant NAME ...]`: serves the local V2
 * sandbox on 127.0.0.1 until SIGINT/SIGTERM, after printing its base URL, a ready API key and the keys the
 * API refuses (the first lines on stdout, `name: value`, so scripts and tests can read them).
 * Its data time follows this machine's clock, so what aivis reports about ages is true;
 * `--clock T` pins it at T instead (docs/sandbox.md).
 */
import { AivisError, ConfigError, ExitCode } from '../../errors.ts';
import { SANDBOX_VARIANTS, startSandbox } from '../../sandbox/index.ts';
import { parseTimestamp } from '../../sandbox/timestamps.ts';
import { checkVariants, type SandboxVariant, VARIANT_NAMES } from '../../sandbox/variants.ts';
import { parseList } from '../cli-arguments.ts';
import { createLogger } from '../../log/logger.ts';
import { defineCommand } from './cli-command.ts';

/**
 * The keys that try the API's refusals, printed labelled with the answer each gets, so a user
 * can see what aivis says for them (`aivis check` with one as the config's key).
 */
const RESTRICTED_KEYS = [
  { name: 'read_only_key', key: 'readOnly', answer: 'read scope only: syncs work, prompt imports get 403' },
  { name: 'no_read_scope_key', key: 'noReadScope', answer: 'prompts_write without read: every read gets 403' },
  { name: 'v2_disabled_key', key: 'v2Disabled', answer: 'a workspace without V2: every call gets 403' },
] as const;

/** `--help` lists every variant with what it changes. */
const VARIANT_HELP = [
  'Variants (--variant NAME, repeatable or comma-separated): spec-legal answers other than the sandbox default',
  ...VARIANT_NAMES.map((name) => `  ${name}: ${SANDBOX_VARIANTS[name]}`),
].join('\n');

/** `--variant a --variant b,c` as checked names; an unknown one is a usage error naming the known ones. */
function variantsOf(values: readonly string[] | undefined): SandboxVariant[] {
  const names = (values ?? []).flatMap((value) => parseList(value, '--variant') ?? []);
  try {
    return [...checkVariants(names)];
  } catch (error) {
    throw new ConfigError(`--variant: ${(error as Error).message}.`);
  }
}

/** `--clock T`: T as written, once it is a timestamp the sandbox reads. */
function checkClock(value: string | undefined): string | undefined {
  if (value !== undefined && parseTimestamp(value) === null)
    throw new ConfigError(`--clock "${value}" is not a UTC timestamp such as 2026-01-01T00:00:00Z.`);
  return value;
}

/** What the data clock does, for the printed summary. */
function clockLines(pinned: boolean, baseUrl: string): string[] {
  return pinned
    ? [
        'Data time is pinned (--clock): it moves only when advanced.',
        `Advance data time: curl -X POST -d '{"days":1}' ${baseUrl}/_sandbox/advance`,
      ]
    : ["Data time follows this machine's clock: new analyses arrive as time passes (--clock T pins it at T)."];
}

/** The flag's word as a whole number; taken as text so a mistyped word is named, not `NaN`. */
function checkInteger(name: string, word: string, min: number, max: number): number {
  const value = /^\d+$/.test(word.trim()) ? Number(word) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(word)}).`);
  }
  return value;
}

/** A port another process holds is the user's to resolve: say which, and how to pick another (exit 1). */
function portRefusal(error: unknown, port: number): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') return error;
  return new AivisError(
    `port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another with --port (--port 0 takes a free one)`,
    ExitCode.Failure,
    { cause: error },
  );
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilStopped(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export const sandboxCommand = defineCommand({
  command: 'sandbox',
  describe: 'Serve a local Public API V2 sandbox with seeded data on 127.0.0.1',
  builder: (yargs) =>
    yargs
      .option('port', { type: 'string', default: '0', describe: 'Port on 127.0.0.1 (0 = a free one)' })
      .option('websites', { type: 'string', default: '5', describe: 'Websites in the workspace' })
      .option('seed', { type: 'string', default: '1', describe: 'Seed of the generated data and keys' })
      .option('clock', {
        type: 'string',
        describe:
          "Pin the data time at this UTC timestamp (e.g. 2026-01-01T00:00:00Z); it then moves only when advanced. Default: this machine's clock",
      })
      .option('variant', {
        type: 'string',
        array: true,
        describe: 'Answer as a spec-legal server other than the default would (see Variants below)',
      })
      .epilogue(VARIANT_HELP)
      // The sandbox reads no config: the global flag would only mislead in its help.
      .hide('config'),
  handler: async (argv) => {
    const port = checkInteger('port', argv.port, 0, 65535);
    const websites = checkInteger('websites', argv.websites, 0, 10_000);
    const seed = checkInteger('seed', argv.seed, 0, 2 ** 32 - 1);
    const variants = variantsOf(argv.variant);
    const start = checkClock(argv.clock);
    const sandbox = await startSandbox({
      port,
      websites,
      seed,
      variants,
      ...(start === undefined ? { followWallClock: true } : { start }),
    }).catch((error: unknown) => {
      throw portRefusal(error, port);
    });
    process.stdout.write(
      [
        `base_url: ${sandbox.baseUrl}`,
        `api_key: ${sandbox.apiKey}`,
        ...RESTRICTED_KEYS.map(({ name, key, answer }) => `${name}: ${sandbox.keys[key]}  # ${answer}`),
        `Public API V2 at ${sandbox.baseUrl}/public/v2 (seed ${seed}, ${websites} websites${variants.length > 0 ? `, variants ${variants.join(', ')}` : ''}); data time ${sandbox.clock.now()}.`,
        `Try: curl -H "Authorization: Bearer ${sandbox.apiKey}" ${sandbox.baseUrl}/public/v2/websites`,
        ...clockLines(start !== undefined, sandbox.baseUrl),
        'Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
    const signal = await untilStopped();
    await sandbox.close();
    createLogger().info(`aivis sandbox: stopped on ${signal}`);
    return ExitCode.Success;
  },
});
