/**
 * `aivis sandbox [--port N] [--websites N] [--seed N]`: serves the local V2 sandbox on
 * 127.0.0.1 until SIGINT/SIGTERM, after printing its base URL and a ready API key (the first
 * lines on stdout, so scripts and tests can read them).
 */
import type { CommandModule } from 'yargs';
import { ConfigError } from '../../errors.ts';
import { startSandbox } from '../../sandbox/index.ts';

interface SandboxArgs {
  port: number;
  websites: number;
  seed: number;
}

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`--${name} must be an integer from ${min} to ${max} (got ${value}).`);
  }
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

export const sandboxCommand: CommandModule<object, SandboxArgs> = {
  command: 'sandbox',
  describe: 'Serve a local Public API V2 sandbox with seeded data on 127.0.0.1',
  builder: (yargs) =>
    yargs
      .option('port', { type: 'number', default: 0, describe: 'Port on 127.0.0.1 (0 = a free one)' })
      .option('websites', { type: 'number', default: 5, describe: 'Websites in the workspace' })
      .option('seed', { type: 'number', default: 1, describe: 'Seed of the generated data and keys' }),
  handler: async (argv) => {
    checkInteger('port', argv.port, 0, 65535);
    checkInteger('websites', argv.websites, 0, 10_000);
    checkInteger('seed', argv.seed, 0, 2 ** 32 - 1);
    const sandbox = await startSandbox({ port: argv.port, websites: argv.websites, seed: argv.seed });
    process.stdout.write(
      [
        `base_url: ${sandbox.baseUrl}`,
        `api_key: ${sandbox.apiKey}`,
        `Public API V2 at ${sandbox.baseUrl}/public/v2 (seed ${argv.seed}, ${argv.websites} websites); data time ${sandbox.clock.now()}.`,
        `Try: curl -H "Authorization: Bearer ${sandbox.apiKey}" ${sandbox.baseUrl}/public/v2/websites`,
        `Advance data time: curl -X POST -d '{"days":1}' ${sandbox.baseUrl}/_sandbox/advance`,
        'Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
    const signal = await untilStopped();
    await sandbox.close();
    process.stderr.write(`aivis sandbox: stopped on ${signal}\n`);
  },
};
