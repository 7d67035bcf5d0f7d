#!/usr/bin/env node
'use strict';
/**
 * The `tap-aivis` command of the installed package (a Singer tap, docs/protocols.md#singer):
 * first the Node.js version, then the heap limits (bin/heap-limits.cjs), then the tap compiled to dist/.
 */
require('./require-node.cjs').requireNode();
// Under the image's heap limits (bin/heap-limits.cjs), in a child node when this one lacks them.
if (!require('./heap-limits.cjs').relaunchWithHeapLimits()) {
  import('../dist/src/cli/tap-main.js').then((tap) => {
    tap.run(process.argv.slice(2));
  });
}
