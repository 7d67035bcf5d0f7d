'use strict';
/**
 * Stops with a clear message on a Node.js older than package.json's `engines` range, before
 * anything that needs a newer one is loaded (Node 20 cannot run `.ts` files and fails
 * deep inside a dependency, e.g. with ERR_UNKNOWN_FILE_EXTENSION). Plain CommonJS in old
 * syntax, so any Node can read it. Used by the `aivis` bin (bin/aivis.cjs) and, run as
 * `node bin/require-node.cjs`, by `npm test`, `npm run demo` and `npm run bench`.
 *
 * It reads one form of range, `>=X.Y.Z`, the one package.json uses; another form is an
 * error here rather than a guess.
 */
var fs = require('node:fs');
var path = require('node:path');

var ROOT = path.join(__dirname, '..');

/** `[major, minor, patch]` of `22.19.0` or `v22.19.0`. */
function parseVersion(text) {
  var match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (!match) throw new Error(`"${text}" is not a version such as 22.19.0`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The lowest version `range` (`>=X.Y.Z`) accepts. */
function minimumOf(range) {
  var match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(String(range).trim());
  if (!match)
    throw new Error(`engines.node "${range}" is not of the form ">=X.Y.Z", the only form bin/require-node.cjs reads`);
  return match[1];
}

/** True when `version` is `minimum` or newer. */
function atLeast(version, minimum) {
  var have = parseVersion(version);
  var need = parseVersion(minimum);
  for (var i = 0; i < 3; i++) {
    if (have[i] !== need[i]) return have[i] > need[i];
  }
  return true;
}

/** The message for a Node older than package.json allows, or undefined when it is recent enough. */
function nodeProblem(version) {
  var range = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
  if (atLeast(version, minimumOf(range))) return undefined;
  // In a checkout, the script that fetches Node 24 from the npm registry; installed, only the advice.
  var how = fs.existsSync(path.join(ROOT, '.ci', 'node.sh'))
    ? "run 'source .ci/node.sh' or install Node.js 24 LTS"
    : 'install Node.js 24 LTS (https://nodejs.org/)';
  return `aivis needs Node.js ${range} (this is ${version}): ${how}`;
}

/** Exits 1 with the message (a JSON log line when stderr is not a terminal, like every aivis line) on too old a Node. */
function requireNode() {
  var problem = nodeProblem(process.versions.node);
  if (problem === undefined) return;
  var line = process.stderr.isTTY
    ? problem
    : JSON.stringify({ ts: new Date().toISOString(), level: 'error', msg: problem, exit_code: 1 });
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

module.exports = { atLeast: atLeast, minimumOf: minimumOf, nodeProblem: nodeProblem, requireNode: requireNode };

if (require.main === module) requireNode();
