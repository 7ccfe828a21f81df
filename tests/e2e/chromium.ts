// Debian's Chromium through playwright-core (npm cannot download a browser here): where it is and
// how it starts, in a file of its own so the global setup and bench/ can use it without Vitest.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium-headless-shell: the same Chromium build as its `chromium` package (Blink, V8,
 * the network stack, site isolation), without the desktop browser around it (profiles, windows,
 * the address bar's WebUI), which a test never sees. Playwright runs this shell for its own
 * headless tests. The e2e project in it on this 2-core machine, same hour: 223 s / 390 core-s,
 * against 253–277 s / 453–490 core-s in /usr/bin/chromium; six files alternated, 81 and 83
 * core-s against 95. scripts/ensure-chromium.sh installs it; the full browser is the fallback
 * where it cannot, and CHROMIUM_PATH chooses any other Chromium or Chrome.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : '/usr/bin/chromium');

/**
 * The features playwright-core (its exact pinned version) disables itself, copied because our list
 * replaces its list: tests/e2e/global-setup.ts checks the launched browser's real command line and
 * stops the run if an upgrade of playwright-core added one we do not repeat.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // One --disable-features for all: Chromium reads only the last one, so a second list would undo
  // the one Playwright passes. Playwright's own list first (PLAYWRIGHT_DISABLED_FEATURES), then
  // ours: the full Chromium 156 (the fallback, or a CHROMIUM_PATH) preloads its omnibox popup (two
  // chrome://omnibox-popup.top-chrome WebUI pages in a renderer of their own) in every new window,
  // and each test's fresh context is a new window. That was about 1.8 of the 3.5 core-seconds a
  // test's page load cost, for an address bar headless never shows (the headless shell has none).
  // Browser UI only; nothing of the page changes.
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'].join(',')}`,
  // No host but loopback: every other name fails to resolve, in every context of this browser, so
  // each test sees the offline case whatever the machine's network (the WebContainer runtime would
  // otherwise load from StackBlitz), and a request that leaves is still seen by the test (it is
  // made, and fails). This replaced a Playwright route on each context that aborted such requests:
  // a route makes every request of the page, the app's own included, wait for a round trip through
  // Playwright's server and the test's process. Measured on a fresh page of the exercise view, same
  // machine, alternated: 2.20–2.38 core-seconds without the route, 2.70–2.79 with it.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

/** A browser of its own (bench/, and tests that must not share); a fresh temporary user-data dir. */
export function launchChromium(): Promise<Browser> {
  // `headless: false` only stops playwright adding its own headless flag: --headless above decides.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: false });
}

/**
 * Features a --disable-features before the last one turns off that the last one (the one Chromium
 * reads) does not: read from a launched browser's command line (/proc/PID/cmdline on Linux).
 */
export function featuresLostFromCommandLine(args: readonly string[]): string[] {
  const lists = args.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
  const last = new Set(lists.at(-1) ?? []);
  return [...new Set(lists.slice(0, -1).flat())].filter((feature) => feature !== '' && !last.has(feature));
}
