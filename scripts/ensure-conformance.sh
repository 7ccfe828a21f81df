#!/usr/bin/env bash
# The official MCP conformance suite, pinned, for tests/conformance: installed from the npm registry
# into the same cache folder OUTSIDE the project that scripts/ensure-node24.sh uses (nothing in
# node_modules, package.json or the lockfile changes), once. Prints the path of its CLI entry on
# stdout; run it with the Node that ensure-node24.sh gives (0.1.16 needs Node >= 22: fs.globSync).
#
#   CLI="$(bash scripts/ensure-conformance.sh)"                    # 0.1.16 (2025-11-25 scenarios)
#   CLI="$(bash scripts/ensure-conformance.sh 0.2.0-alpha.12)"     # 2026-07-28 scenarios
#   "$(bash scripts/ensure-node24.sh)" "$CLI" list
#
# Only the pinned versions below are accepted; each gets its own folder beside the others.
# The cache: $MCP_PLAYGROUND_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/mcp-playground.
set -euo pipefail

PINNED_VERSIONS="0.1.16 0.2.0-alpha.12"
VERSION="${1:-0.1.16}"
case " $PINNED_VERSIONS " in
  *" $VERSION "*) ;;
  *) echo "ensure-conformance: $VERSION is not a pinned version ($PINNED_VERSIONS)" >&2; exit 2 ;;
esac
PACKAGE="@modelcontextprotocol/conformance"
CACHE="${MCP_PLAYGROUND_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-playground}"
PREFIX="$CACHE/conformance-$VERSION"
CLI="$PREFIX/node_modules/$PACKAGE/dist/index.js"
MANIFEST="$PREFIX/node_modules/$PACKAGE/package.json"

installed_version() {
  [ -f "$MANIFEST" ] && sed -n 's/^  "version": "\(.*\)",$/\1/p' "$MANIFEST"
}

if [ -f "$CLI" ] && [ "$(installed_version)" = "$VERSION" ]; then
  echo "$CLI"
  exit 0
fi

echo "ensure-conformance: installing $PACKAGE@$VERSION into $PREFIX" >&2
mkdir -p "$PREFIX"
# Its own folder with its own package.json, so npm never walks up into a project.
[ -f "$PREFIX/package.json" ] || echo '{ "private": true, "description": "MCP conformance suite for mcp-playground (scripts/ensure-conformance.sh)" }' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts "$PACKAGE@$VERSION" >&2

if [ ! -f "$CLI" ] || [ "$(installed_version)" != "$VERSION" ]; then
  echo "ensure-conformance: $CLI is not $PACKAGE $VERSION after the install." >&2
  exit 1
fi
echo "$CLI"
