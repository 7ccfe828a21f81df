#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (npm cannot download a browser here): its headless
# shell, chromium-headless-shell (the same build without the desktop browser around it; see
# tests/e2e/chromium.ts), with the full `chromium` as the fallback. Install the shell when it is
# missing and we are allowed to; otherwise say exactly what to do. CHROMIUM_PATH overrides both.
set -euo pipefail
SHELL_PATH=/usr/bin/chromium-headless-shell
FULL_PATH=/usr/bin/chromium
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && exit 0
  echo "CHROMIUM_PATH is $CHROMIUM_PATH, which is not an executable file." >&2
  exit 1
fi
if [ -x "$SHELL_PATH" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium-headless-shell not found at $SHELL_PATH: installing Debian's package (the browser of the end-to-end tests)…" >&2
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell fonts-noto-cjk >/dev/null; then
    [ -x "$SHELL_PATH" ] && exit 0
  fi
fi
if [ -x "$FULL_PATH" ]; then
  echo "Using the full Chromium at $FULL_PATH (chromium-headless-shell could not be installed): the end-to-end tests pass in it, about a sixth slower." >&2
  exit 0
fi
echo "The end-to-end tests need Chromium: $SHELL_PATH (Debian/Ubuntu: sudo apt-get install chromium-headless-shell) or $FULL_PATH." >&2
echo "Or set CHROMIUM_PATH to a Chromium or Chrome binary." >&2
exit 1
