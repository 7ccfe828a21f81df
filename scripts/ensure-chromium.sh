#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (npm cannot download a browser here).
# Install it when it is missing and we are allowed to; otherwise say exactly what to do.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found at $CHROMIUM: installing Debian's chromium package (needed by the end-to-end tests)…" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "The end-to-end tests need Chromium at $CHROMIUM." >&2
echo "Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary." >&2
exit 1
