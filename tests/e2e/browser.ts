// The end-to-end harness: Debian's Chromium through playwright-core (no browser download, no
// network), one browser per file and a fresh context per test so no test sees another's
// localStorage, and the production app served by the ONE server/start.ts server that
// tests/e2e/global-setup.ts started for all files (the bridge on the same loopback port).

import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.ts';
import { PAGE_LIMITS_GLOBAL, type PageLimits } from '../../src/sandbox/page-limits.ts';
import { limit } from './limits.ts';

export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from './chromium.ts';

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
   * Let the app install its service worker. Off by default: every fresh context would otherwise
   * precache the whole build (about 16 MB) in the background, which costs the two cores more than
   * most tests do. The offline and preflight tests, which are about the service worker, turn it on.
   */
  serviceWorker?: boolean;
  /**
   * Shorter product timers (src/sandbox/page-limits.ts), set before the page's own scripts run: only
   * for a wait whose outcome is certain whatever the limit (a WebContainer that cannot boot here, a
   * sandbox frame the test blocks), so the test asserts the outcome without waiting out 6 or 15 s.
   */
  limits?: PageLimits;
}

export async function openPage(browser: Browser, options: PageOptions = {}): Promise<TestPage> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: { width: 1400, height: 1000 },
    serviceWorkers: options.serviceWorker === true ? 'allow' : 'block',
  });
  if (options.limits !== undefined) {
    await context.addInitScript(({ name, limits }) => {
      (globalThis as Record<string, unknown>)[name] = limits;
    }, { name: PAGE_LIMITS_GLOBAL, limits: options.limits });
  }
  // Every wait that names no limit of its own (locator actions, waitFor, waitForFunction) gets
  // the scaled one: 30 s is what a quiet machine could need at most (limits.ts).
  context.setDefaultTimeout(limit(30_000));
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.message}`));
  return { context, page, consoleLines, close: () => context.close() };
}

export interface AppAndBrowser {
  /** The shared app server (tests/e2e/global-setup.ts), e.g. http://127.0.0.1:43121/. */
  readonly url: string;
  /** The suite's one Chromium (global-setup.ts), connected to for this file. */
  readonly browser: Browser;
}

/** The one app server every e2e file shares, started in tests/e2e/global-setup.ts. */
export function appUrl(): string {
  return inject('appUrl');
}

/** The production build that server serves: read it, copy it, never change it. */
export function distDir(): string {
  return inject('distDir');
}

/**
 * The app server on its own, for tools outside Vitest (bench/): builds dist/ first when it is
 * missing or stale. E2E test files never call it; they share the one from global-setup.ts.
 */
export function startAppServer(): Promise<RunningServer> {
  return startServer({ port: 0, log: () => {} });
}

/**
 * A private server on the shared build, for a file that has to break its server (close the
 * bridge): no build, no program build, its own bridge on its own free port. The caller closes it.
 */
export function startPrivateServer(dist = distDir()): Promise<RunningServer> {
  return startServer({ port: 0, distDir: dist, skipBuild: true, log: () => {} });
}

/**
 * The setup nearly every e2e file needs, in one place so they cannot drift apart: the shared app
 * server's address and a connection to the suite's one Chromium (global-setup.ts), opened before
 * the file's tests and closed after them (closing it closes this file's contexts, not the browser). Call it at the top level of a test file; it registers the beforeAll/afterAll hooks itself,
 * and the object it returns has its properties filled in by beforeAll, so read them inside tests,
 * not at load time.
 */
export function useAppAndBrowser(): AppAndBrowser {
  const app: { url?: string; browser?: Browser } = {};
  beforeAll(async () => {
    app.url = appUrl();
    app.browser = await chromium.connect(inject('chromiumEndpoint'));
  });
  afterAll(async () => {
    await app.browser?.close();
  });
  return app as AppAndBrowser;
}

export const HOST_NAMES = { bridge: 'Local bridge', worker: 'In-browser worker' } as const;
export type HostKind = keyof typeof HOST_NAMES;

/**
 * A fresh page on a forced host (`?host=`; the suite's browser reaches no host but loopback,
 * chromium.ts): `beforeLoad` prepares the page (e.g. saved progress) before it loads `hash`, and the page is returned once it
 * says it is live on that host.
 */
export async function openOnHost(app: AppAndBrowser, host: HostKind, hash: string, beforeLoad?: (page: Page) => Promise<unknown>): Promise<TestPage> {
  const opened = await openPage(app.browser);
  await beforeLoad?.(opened.page);
  await opened.page.goto(`${app.url}?host=${host}${hash}`);
  await opened.page.getByText(`Live host: ${HOST_NAMES[host]}`).waitFor({ timeout: limit(15_000) });
  return opened;
}

/**
 * A download's text. Read as a stream: the browser is the suite's shared one, connected to
 * remotely, and a remote download has no local path.
 */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
