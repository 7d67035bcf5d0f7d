#!/usr/bin/env node
'use strict';
/**
 * The `tap-aivis` command of the installed package (a Singer tap, docs/protocols.md#singer):
 * first the Node.js version, then the tap compiled to dist/.
 */
require('./require-node.cjs').requireNode();
import('../dist/src/cli/tap-main.js').then((tap) => {
  tap.run(process.argv.slice(2));
});
