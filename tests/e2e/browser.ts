// The end-to-end harness: Debian's Chromium through playwright-core (no browser download, no
// network), a fresh context per test so no test sees another's localStorage, and the production
// app served by server/start.ts with the bridge on one loopback port.

import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.ts';

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

/** One browser per test file; playwright gives it a fresh temporary user-data dir. */
export function launchChromium(): Promise<Browser> {
  // `headless: false` only stops playwright adding its own headless flag: --headless above decides.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: false });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** What the page printed and threw, for failure messages. */
  consoleLines: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  /** navigator.language of the fresh context; default en-US. */
  locale?: string;
  /**
   * Abort every request that leaves this origin, so the test sees the offline case whatever the
   * machine's network (the WebContainer runtime would otherwise load from StackBlitz).
   */
  onlyOrigin?: string;
}

export async function openPage(browser: Browser, options: PageOptions = {}): Promise<TestPage> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: { width: 1400, height: 1000 } });
  const onlyOrigin = options.onlyOrigin;
  if (onlyOrigin !== undefined) {
    await context.route(
      (url) => url.origin !== onlyOrigin,
      (route) => route.abort('internetdisconnected'),
    );
  }
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.message}`));
  return { context, page, consoleLines, close: () => context.close() };
}

// Test files run in parallel, and startServer rebuilds dist/ when it is stale: two builds into the
// same folder at once would corrupt it. A lock directory makes the second file wait, and then it
// finds dist/ fresh. A lock older than the longest build is a leftover from a killed run.
const BUILD_LOCK = join(tmpdir(), 'mcp-playground-e2e-build.lock');
const STALE_LOCK_MS = 180_000;

export async function startAppServer(): Promise<RunningServer> {
  await acquireLock();
  try {
    // As a learner who opted in: "Check my server" then runs on the bridge, in its sandbox.
    return await startServer({ port: 0, log: () => {}, learnerCodeInNode: true });
  } finally {
    await rm(BUILD_LOCK, { recursive: true, force: true });
  }
}

async function acquireLock(): Promise<void> {
  for (;;) {
    try {
      await mkdir(BUILD_LOCK);
      return;
    } catch {
      const info = await stat(BUILD_LOCK).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) await rm(BUILD_LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export interface AppAndBrowser {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * The setup nearly every e2e file needs, in one place so they cannot drift apart: the app server
 * and one Chromium, started side by side before the file's tests and closed after them. Call it at
 * the top level of a test file; it registers the beforeAll/afterAll hooks itself, and the object it
 * returns has its properties filled in by beforeAll, so read them inside tests, not at load time.
 * `timeout` is for beforeAll (a cold start may build dist/ first).
 */
export function useAppAndBrowser(options: { timeout?: number } = {}): AppAndBrowser {
  const app: { server?: RunningServer; browser?: Browser } = {};
  beforeAll(async () => {
    [app.server, app.browser] = await Promise.all([startAppServer(), launchChromium()]);
  }, options.timeout ?? 150_000);
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app as AppAndBrowser;
}

export const HOST_NAMES = { bridge: 'Local bridge', worker: 'In-browser worker' } as const;
export type HostKind = keyof typeof HOST_NAMES;

/**
 * A fresh page on a forced host (`?host=`), with only the app's origin reachable: `beforeLoad`
 * prepares the page (e.g. saved progress) before it loads `hash`, and the page is returned once it
 * says it is live on that host.
 */
export async function openOnHost(app: AppAndBrowser, host: HostKind, hash: string, beforeLoad?: (page: Page) => Promise<unknown>): Promise<TestPage> {
  const opened = await openPage(app.browser, { onlyOrigin: new URL(app.server.url).origin });
  await beforeLoad?.(opened.page);
  await opened.page.goto(`${app.server.url}?host=${host}${hash}`);
  await opened.page.getByText(`Live host: ${HOST_NAMES[host]}`).waitFor({ timeout: 15_000 });
  return opened;
}
