/**
 * The argument lists the deploy examples hand to the image's entrypoint (`aivis`), checked with
 * the real CLI grammar (`cliParser` of src/cli/main.ts), as test/docs/command-lines.test.ts
 * checks the docs: an unknown verb or flag fails a test, not a scheduled run.
 */
import { cliParser } from '../../src/cli/main.ts';

/** Why `args` does not parse as an aivis command line, or undefined when it does. */
export async function argumentsProblem(args: readonly string[]): Promise<string | undefined> {
  let ran = false;
  // yargs throws a usage error synchronously from parseAsync, and a handler's asynchronously.
  const parse = async () =>
    cliParser([...args], async () => {
      ran = true;
    }).parseAsync();
  const error = await parse().then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0],
  );
  return error ?? (ran ? undefined : 'names no command');
}
