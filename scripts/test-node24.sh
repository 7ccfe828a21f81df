#!/usr/bin/env bash
# `npm run test:node24`: the unit and integration projects again, under Node 24 (the current LTS),
# whatever Node runs npm. Node 24 comes from scripts/ensure-node24.sh (pinned, cached outside the
# project). Its folder goes first on PATH, so every `node` the tests start (tsx, the CLI, the
# programs they spawn) is Node 24 too. Extra arguments go to Vitest (e.g. a file filter).
set -euo pipefail
cd "$(dirname "$0")/.."

OUTER="$(node --version)"
NODE24="$(bash scripts/ensure-node24.sh)"
export PATH="$(dirname "$NODE24"):$PATH"
echo "test:node24: the unit and integration projects under node $(node --version) ($NODE24); the rest of npm test ran under node $OUTER" >&2
exec node node_modules/vitest/vitest.mjs run --project unit --project integration "$@"
