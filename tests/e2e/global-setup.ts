// Vitest globalSetup of the e2e project: ONE production build and ONE app server for every e2e
// file. startServer builds dist/ when it is missing or older than its sources (a clean clone
// builds once here; a rerun with nothing changed builds nothing), writes the Node programs into
// dist/generated, and serves the app and the bridge on one free loopback port. The files get its
// address and the build's folder through inject('appUrl') / inject('distDir'), and no file ever
// builds: the build happens here, before any of them starts, so parallel files cannot race on it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { startServer } from '../../server/start.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, featuresLostFromCommandLine } from './chromium.ts';
import { measureSlowness } from './calibrate.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared app server, e.g. http://127.0.0.1:43121/ (ends with a slash). */
    appUrl: string;
    /** The production build it serves (read-only for tests: copy it before changing anything). */
    distDir: string;
    /** The one Chromium every file connects to (browser.ts useAppAndBrowser). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Measured before anything of ours runs, so it sees the machine, not the suite (limits.ts).
  const slowness = measureSlowness();
  console.log(`[e2e] this machine is ${slowness.toFixed(2)}× slower than the quiet reference now; waits scale with it`);
  project.provide('machineSlowness', slowness);
  const distDir = join(PROJECT_ROOT, 'dist');
  const started = performance.now();
  const server = await startServer({ port: 0, distDir, log: () => {}, learnerCodeInNode: true });
  console.log(`[e2e] app server ready at ${server.url} (build checked or made in ${Math.round(performance.now() - started)} ms)`);
  project.provide('appUrl', server.url);
  project.provide('distDir', distDir);
  // One Chromium for every file (each test still gets a fresh context, so nothing is shared but
  // the process): a browser per file cost a launch each and, with files side by side, more
  // renderer processes than two cores carry.
  const browserServer = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: false }).catch(async (error: unknown) => {
    await server.close(); // or the run would hang on the open server instead of saying why
    throw error;
  });
  // Our --disable-features replaces Playwright's (chromium.ts): the browser as launched must still
  // have every feature Playwright turns off turned off.
  const pid = browserServer.process().pid;
  if (pid !== undefined && process.platform === 'linux') {
    const lost = featuresLostFromCommandLine(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    if (lost.length > 0) {
      await browserServer.close();
      await server.close();
      throw new Error(`playwright-core disables ${lost.join(', ')}, which tests/e2e/chromium.ts's --disable-features does not repeat: add them to PLAYWRIGHT_DISABLED_FEATURES`);
    }
  }
  project.provide('chromiumEndpoint', browserServer.wsEndpoint());
  return async () => {
    await browserServer.close();
    await server.close();
  };
}
