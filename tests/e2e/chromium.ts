// Debian's Chromium through playwright-core (npm cannot download a browser here): where it is and
// how it starts, in a file of its own so the global setup and bench/ can use it without Vitest.

import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A browser of its own (bench/, and tests that must not share); a fresh temporary user-data dir. */
export function launchChromium(): Promise<Browser> {
  // `headless: false` only stops playwright adding its own headless flag: --headless above decides.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: false });
}

