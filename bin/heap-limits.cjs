'use strict';
/**
 * The heap the installed `aivis` and `tap-aivis` run in: the container image's
 * (Dockerfile NODE_OPTIONS), so memory stays flat outside the image too (docs/performance.md,
 * memory). Without a cap V8 sizes the heap from the machine's memory and lets dead pages pile
 * up between major collections (303 MB at 30,000 mentions, 379 MB at 100,000). V8 reads these
 * limits only when it starts (`v8.setFlagsFromString` does not move `heap_size_limit`), so
 * a launch without them runs the command again in a child node that has them: same argv,
 * environment and stdio (stdout stays the protocol's alone), signals handed on, its exit code
 * passed back. A limit the user set (NODE_OPTIONS or a node flag) is theirs and is not added.
 */
const childProcess = require('node:child_process');
const os = require('node:os');

/** `--max-semi-space-size=1 --max-old-space-size=256`, as the image sets them. */
const HEAP_FLAGS = [
  ['--max-semi-space-size', '1'],
  ['--max-old-space-size', '256'],
];

/** Signals a supervisor or a terminal stops the command with; the child reports them (130, 143). */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The flags of HEAP_FLAGS neither `nodeOptions` nor `execArgv` sets (`_` and `-` are the same to node). */
function missingHeapFlags(nodeOptions, execArgv) {
  const given = String(nodeOptions || '')
    .split(/\s+/)
    .concat(execArgv)
    .map((arg) => arg.split('=')[0].replace(/_/g, '-'));
  return HEAP_FLAGS.filter((flag) => !given.includes(flag[0])).map((flag) => `${flag[0]}=${flag[1]}`);
}

/**
 * Runs this script again under the heap limits it lacks and returns true (the caller then
 * loads nothing: this process only waits and exits as the child does), or returns false when
 * every limit is already set.
 */
function relaunchWithHeapLimits() {
  const flags = missingHeapFlags(process.env.NODE_OPTIONS, process.execArgv);
  if (flags.length === 0) return false;
  const child = childProcess.spawn(process.execPath, flags.concat(process.execArgv, process.argv.slice(1)), {
    stdio: 'inherit',
    // Its own process group, so a Ctrl-C (sent to the terminal's foreground group) reaches it
    // once, through this process: a second SIGINT would end it without saving its page.
    detached: process.platform !== 'win32',
  });
  for (const signal of FORWARDED) {
    process.on(signal, () => {
      child.kill(signal);
    });
  }
  child.on('error', (error) => {
    process.stderr.write(`aivis: cannot start node (${process.execPath}): ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    // Ended by a signal it did not handle: 128 + the signal's number, as a shell reports it.
    if (code === null) process.exit(128 + (os.constants.signals[signal] || 0));
    process.exit(code);
  });
  return true;
}

module.exports = { missingHeapFlags, relaunchWithHeapLimits };
