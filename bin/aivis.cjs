#!/usr/bin/env node
'use strict';
/**
 * The `aivis` command of the installed package: first the Node.js version (a plain script
 * any Node runs), then the heap limits (bin/heap-limits.cjs), then the CLI compiled to dist/.
 */
require('./require-node.cjs').requireNode();
// Under the image's heap limits (bin/heap-limits.cjs), in a child node when this one lacks them.
if (!require('./heap-limits.cjs').relaunchWithHeapLimits()) {
  import('../dist/src/cli/main.js').then((cli) => {
    cli.run(process.argv.slice(2));
  });
}
