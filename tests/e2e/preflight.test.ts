// The workshop preflight panel in real Chromium: under `npm start` (isolated, bridge with token,
// no internet for the WebContainer), in Chinese for a zh-CN browser, and on a host that cannot set
// headers (like GitHub Pages), where the page is not isolated but the app still works.

import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { contentTypeFor } from '../../server/static-files.ts';
import { expectAccessible } from './axe.ts';
import { distDir, openPage, useAppAndBrowser } from './browser.ts';
import { limit, UNBOOTABLE_WEBCONTAINER_MS } from './limits.ts';
import { readClipboard } from './clipboard.ts';

const app = useAppAndBrowser();
let plainHost: Server;
let plainUrl: string;

/** A static host that sets no headers at all (GitHub Pages cannot set COOP/COEP): files only. */
function startPlainStaticHost(): Promise<Server> {
  const DIST = distDir();
  const host = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      let file = normalize(join(DIST, path === '/' ? 'index.html' : path));
      if (!file.startsWith(DIST) || !(await stat(file).catch(() => null))?.isFile()) file = join(DIST, 'index.html');
      res.writeHead(200, { 'Content-Type': contentTypeFor(file) });
      res.end(await readFile(file));
    })().catch(() => res.destroy());
  });
  return new Promise((resolve) => host.listen(0, '127.0.0.1', () => resolve(host)));
}

beforeAll(async () => {
  // The plain host serves the same build as the shared app server.
  plainHost = await startPlainStaticHost();
  plainUrl = `http://127.0.0.1:${(plainHost.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  plainHost?.closeAllConnections();
  await new Promise((resolve) => plainHost?.close(resolve));
});

function row(page: Page, check: string): Locator {
  return page.locator(`.preflight-row[data-check="${check}"]`);
}

async function waitForFinished(page: Page, text: RegExp, timeout = UNBOOTABLE_WEBCONTAINER_MS + limit(10_000)): Promise<void> {
  await page.locator('.preflight__progress').filter({ hasText: text }).waitFor({ timeout });
}

// Side by side: each test has its own context, and the first two mostly wait out the WebContainer's
// boot timeout (no internet), a fixed wait on a timer that one test need not queue behind another's.
describe.concurrent('preflight panel', () => {
  it('under npm start with no internet: one row per check, fixes for the WebContainer, Run again, copyable summary', async () => {
    const { context, page, close } = await openPage(app.browser, { serviceWorker: true, limits: { webContainerBootMs: UNBOOTABLE_WEBCONTAINER_MS } });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
      await page.goto(`${app.url}#preflight`);
      await page.getByRole('heading', { name: 'Workshop preflight' }).waitFor();
      // Progress while the WebContainer boot is tried (it cannot load StackBlitz here).
      await page.locator('.preflight__progress').filter({ hasText: /Checking… \d of 5 done/ }).waitFor();
      await waitForFinished(page, /^Finished:/);

      expect(await row(page, 'isolation').textContent()).toContain('✓ OK');
      expect(await row(page, 'isolation').textContent()).toContain('cross-origin isolated and SharedArrayBuffer is available');

      const webcontainer = (await row(page, 'webcontainer').textContent()) ?? '';
      expect(webcontainer).toContain('✗ Problem');
      expect(webcontainer).toMatch(/The WebContainer did not start: WebContainer did not boot within \d+(\.\d)? s/);
      expect(webcontainer).toContain('What to do');
      expect(webcontainer).toContain('[*.]webcontainer.io and [*.]stackblitz.com'); // Chromium: the cookie settings
      expect(webcontainer).toContain('runs the server instead');

      expect(await row(page, 'bridge').textContent()).toMatch(/✓ OK.*The bridge answered at ws:\/\/127\.0\.0\.1:\d+\/bridge/);
      expect(await row(page, 'storage').textContent()).toMatch(/✓ OK.*localStorage works; .* used of .* available/);

      // The first visit saves the app in the background. Once the page says so (a service worker
      // controls it and the header reads "Available offline"), Run again finds the offline row green.
      await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: limit(60_000) });
      await page.getByRole('status', { name: 'Offline copy' }).getByText('Available offline').waitFor({ timeout: limit(60_000) });
      await page.getByRole('button', { name: 'Run again' }).press('Enter'); // keyboard works
      await waitForFinished(page, /^Finished: 4 OK/);
      expect(await row(page, 'offline').textContent()).toMatch(/✓ OK.*has saved all \d+ files/);
      expect(await page.locator('.preflight__progress').textContent()).toBe('Finished: 4 OK, 0 warnings, 1 problems, 0 not needed.');

      const summary = await page.getByRole('textbox', { name: 'Summary for the instructor' }).inputValue();
      expect(summary.split('\n').slice(0, 2)).toEqual(['MCP Playground preflight', expect.stringMatching(/^Browser: Chrome \d+$/)]);
      expect(summary).toContain('[✗ Problem] WebContainer (Node.js in the browser) — The WebContainer did not start');
      expect(summary).toContain('[✓ OK] Local bridge (npm start)');
      await page.getByRole('button', { name: 'Copy summary' }).click();
      await page.getByText('Summary copied.').waitFor();
      expect(await readClipboard(context, new URL(app.url).origin)).toBe(summary);
      await expectAccessible(page, 'the preflight panel after its checks');
    } finally {
      await close();
    }
  });

  it('speaks Chinese for a zh-CN browser', async () => {
    const { page, close } = await openPage(app.browser, { locale: 'zh-CN', limits: { webContainerBootMs: UNBOOTABLE_WEBCONTAINER_MS } });
    try {
      await page.goto(`${app.url}#preflight`);
      await page.getByRole('heading', { name: '课前检查' }).waitFor();
      await waitForFinished(page, /^检查完毕/);
      expect(await row(page, 'isolation').textContent()).toContain('✓ 正常');
      expect(await row(page, 'webcontainer').textContent()).toContain('处理办法');
      expect(await page.getByRole('button', { name: '重新检查', exact: true }).isVisible()).toBe(true);
    } finally {
      await close();
    }
  });

  it('on a host without the headers (GitHub Pages): not isolated, says what to do, and the app still works', async () => {
    const { page, consoleLines, close } = await openPage(app.browser);
    try {
      await page.goto(plainUrl);
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(false);
      // No isolation: the WebContainer is refused at once and, with no token, the worker runs the server.
      await page.getByText('Live host: In-browser worker').waitFor({ timeout: limit(10_000) });
      await page.getByRole('button', { name: 'Run handshake' }).click();
      await page.getByText('Handshake complete.').waitFor({ timeout: limit(15_000) });

      await page.goto(`${plainUrl}#preflight`);
      await waitForFinished(page, /^Finished:/);
      const isolation = (await row(page, 'isolation').textContent()) ?? '';
      expect(isolation).toContain('✗ Problem');
      expect(isolation).toContain('Cross-Origin-Embedder-Policy: require-corp');
      expect(isolation).toContain('the in-browser worker');
      expect(await row(page, 'webcontainer').textContent()).toContain('– Not needed');
      // Read once, not waited for: "Finished:" now comes only after every row has its verdict (ci70
      // read this row "Checking…" after a "Finished: 0 OK…" the panel showed before its checks began).
      expect(await row(page, 'bridge').textContent()).toContain('This page was not served by npm start');
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
