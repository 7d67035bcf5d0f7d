#!/usr/bin/env node
'use strict';
/**
 * The `aivis` command of the installed package: first the Node.js version (a plain script
 * any Node runs), then the CLI compiled to dist/.
 */
require('./require-node.cjs').requireNode();
import('../dist/src/cli/main.js').then((cli) => {
  cli.run(process.argv.slice(2));
});
