#!/usr/bin/env bash
# The bridge runs learner code (npm start -- --learner-code-in-node) only inside an OS sandbox:
# bubblewrap (bwrap) for namespaces and a read-only file system, prlimit (util-linux) for memory
# and CPU caps. The security tests (tests/security/) run every escape against it, so `npm test`
# needs it too. Install it when it is missing and we are allowed to; otherwise say what to do.
set -euo pipefail
[ "$(uname -s)" = "Linux" ] || exit 0
if command -v bwrap >/dev/null 2>&1 && command -v prlimit >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "bwrap or prlimit not found: installing Debian's bubblewrap and util-linux (the learner-code sandbox)…" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap util-linux >/dev/null
  if command -v bwrap >/dev/null 2>&1 && command -v prlimit >/dev/null 2>&1; then exit 0; fi
fi
echo "The learner-code sandbox needs bwrap and prlimit." >&2
echo "Install them (Debian/Ubuntu: sudo apt-get install bubblewrap util-linux; Fedora: sudo dnf install bubblewrap util-linux)." >&2
exit 1
