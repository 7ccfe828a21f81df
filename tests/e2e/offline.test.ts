// Offline after one visit, in real Chromium against `npm start`'s server: the service worker saves
// the whole app on the first visit; with the browser offline, a reload still renders the app from
// the worker's cache, cross-origin isolated, with the lesson, Monaco (and its TypeScript worker)
// and a live server in the in-browser worker, chosen without waiting for the WebContainer's boot.

import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PRECACHE_STATUS_REQUEST, type PrecacheStatus } from '../../src/app/offline/precache-status.ts';
import { DEFAULT_BOOT_TIMEOUT_MS } from '../../src/runtime/webcontainer-host.ts';
import { OFFLINE_WEBCONTAINER_REASON } from '../../src/runtime/host-selection.ts';
import { distDir, openPage, startPrivateServer, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

/** Waits until a service worker controls the page and says it has every file of its manifest. */
async function waitUntilSavedForOffline(page: Page): Promise<PrecacheStatus> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: limit(60_000) });
  await page.getByRole('status', { name: 'Offline copy' }).getByText('Available offline').waitFor({ timeout: limit(60_000) });
  return page.evaluate(
    (type) =>
      new Promise<PrecacheStatus>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data as PrecacheStatus);
        navigator.serviceWorker.controller?.postMessage({ type }, [channel.port2]);
      }),
    PRECACHE_STATUS_REQUEST,
  );
}

describe('offline after one visit', () => {
  it('reloads offline from the service worker: isolated, lesson, editor with its TypeScript worker, worker host at once', async () => {
    const { context, page, consoleLines, close } = await openPage(app.browser, { serviceWorker: true });
    try {
      await page.goto(app.url);
      // The online page carries the per-start bridge token and uses the bridge.
      await page.getByText('Live host: Local bridge').waitFor({ timeout: DEFAULT_BOOT_TIMEOUT_MS + limit(5000) });
      const saved = await waitUntilSavedForOffline(page);
      console.log(`[offline] precached ${saved.cached} of ${saved.expected} files`);
      expect(saved.expected).toBeGreaterThan(40);
      expect(saved.cached).toBe(saved.expected);

      // Meanwhile a fresh browser context on the same origin starts without this context's service
      // worker: nothing controls it before its own worker would take over, and the online page gets
      // its fresh bridge token (nothing this context cached leaked into it).
      const other = await openPage(app.browser, { serviceWorker: true });
      try {
        await other.page.goto(app.url);
        const fresh = await other.page.evaluate(async () => ({
          token: await fetch('/__bridge/token', { headers: { 'X-MCP-Bridge-Token-Request': '1' } }).then((r) => r.ok, () => false),
          inPage: document.documentElement.outerHTML.includes('mcp-bridge-token'),
          registrations: (await navigator.serviceWorker.getRegistrations()).length,
        }));
        expect(fresh.token).toBe(true);
        expect(fresh.inPage).toBe(false);
        expect(fresh.registrations).toBeLessThanOrEqual(1);
      } finally {
        await other.close();
      }

      await context.setOffline(true);
      // Offline emulation must cut loopback too, or the reload below would quietly use the server.
      const reachable = await page.evaluate(async () => {
        try {
          await fetch(`/not-precached-${Date.now()}.txt`, { cache: 'no-store' });
          return true;
        } catch {
          return false;
        }
      });
      expect(reachable).toBe(false);

      await page.reload();
      await page.getByText('Live host: In-browser worker').waitFor({ timeout: DEFAULT_BOOT_TIMEOUT_MS + limit(10_000) });
      // Host selection did not wait for the WebContainer boot race (which never settles offline):
      // it skipped the WebContainer for the browser's own reason, and says so.
      await expect.poll(() => page.locator('.host-row--unavailable').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining(OFFLINE_WEBCONTAINER_REASON)]),
      );

      const facts = await page.evaluate(async () => ({
        onLine: navigator.onLine,
        isolated: globalThis.crossOriginIsolated,
        sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
        controlled: navigator.serviceWorker.controller !== null,
        // Offline there is no token: the service worker never kept a copy of the answer.
        token: await fetch('/__bridge/token', { headers: { 'X-MCP-Bridge-Token-Request': '1' } }).then((r) => r.ok, () => false),
      }));
      expect(facts).toEqual({ onLine: false, isolated: true, sharedArrayBuffer: true, controlled: true, token: false });

      const hosts = page.getByRole('list', { name: 'Host' });
      expect(await hosts.getByRole('listitem').filter({ hasText: 'WebContainer' }).textContent()).toContain("offline: WebContainer needs StackBlitz's servers");
      expect(await hosts.getByRole('listitem').filter({ hasText: 'Local bridge' }).textContent()).toContain('not served by `npm start`');

      // The lesson (inlined in the bundle) and the editor, whose TypeScript worker (7 MB) must come
      // from the cache too: a type error gets its squiggle only when that worker runs.
      await page.getByRole('heading', { name: 'Three message shapes' }).waitFor();
      const editor = page.getByTestId('code-editor');
      await editor.locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      await editor.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\nconst offlineCheck: number = "not a number";\n');
      await editor.locator('.squiggly-error').first().waitFor({ timeout: limit(20_000) });

      // And the live server really runs in the worker.
      await page.getByRole('button', { name: 'Run handshake' }).click();
      await page.getByText('Handshake complete.').waitFor({ timeout: limit(15_000) });

      // And learner code runs: the sandbox frame (sandboxed by its own CSP header, so the service
      // worker serves it, header and all) and the spec worker's bundle come from the precache.
      const status = page.getByTestId('run-status');
      const before = Number(await status.getAttribute('data-seq'));
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.waitForFunction(
        (previous) => {
          const element = document.querySelector('[data-testid="run-status"]');
          return element instanceof HTMLElement && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
        },
        before,
        { timeout: limit(120_000) },
      );
      expect(await page.getByTestId('results').textContent()).not.toContain('could not start');
      expect(await status.getAttribute('data-status')).toBe('fail');
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});

/** A private copy of the shared build, to change without touching what other files are served. */
async function copyOfDist(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'offline-update-'));
  await cp(distDir(), copy, { recursive: true });
  return copy;
}

/**
 * Turns a copy of dist/ into what the next build would look like: every file in assets/ gets a new
 * hashed name (and every reference to it follows, in the chunks, the page and the worker's
 * manifest), the page gets a marker, and the manifest a new revision for index.html.
 */
async function simulateNewBuild(dist: string): Promise<string> {
  const assets = join(dist, 'assets');
  const names = await readdir(assets);
  const renamed = new Map(names.map((name) => [name, name.replace(/(\.[a-z0-9]+)$/, 'n$1')]));
  const rewrite = (text: string) => {
    for (const [from, to] of renamed) text = text.split(from).join(to);
    return text;
  };
  for (const name of names) {
    const path = join(assets, name);
    if (/\.(js|css)$/.test(name)) await writeFile(path, rewrite(await readFile(path, 'utf8')));
    await rename(path, join(assets, renamed.get(name) ?? name));
  }
  const marker = `new build ${Date.now()}`;
  const html = rewrite(await readFile(join(dist, 'index.html'), 'utf8')).replace('<title>', `<!-- ${marker} --><title>`);
  await writeFile(join(dist, 'index.html'), html);
  const sw = await readFile(join(dist, 'sw.js'), 'utf8');
  const newSw = await withFreshDigests(dist, rewrite(sw).replace(/("revision":")[^"]+(",(?:"sha256":"[^"]*",)?"url":"index\.html")/, `$1${Date.now()}$2`));
  expect(newSw).not.toBe(sw);
  await writeFile(join(dist, 'sw.js'), newSw);
  return marker;
}

/**
 * The service worker serves a cached file only when its bytes have the manifest's digest, so the
 * simulated build's manifest gets the digest of each rewritten file, as a real build would.
 */
async function withFreshDigests(dist: string, sw: string): Promise<string> {
  const start = sw.indexOf('[{"revision"');
  const end = sw.indexOf('}]', start) + 2;
  expect(start).toBeGreaterThan(-1);
  const manifest = JSON.parse(sw.slice(start, end)) as Array<{ url: string; sha256?: string }>;
  for (const entry of manifest) entry.sha256 = createHash('sha256').update(await readFile(join(dist, entry.url))).digest('base64');
  return `${sw.slice(0, start)}${JSON.stringify(manifest)}${sw.slice(end)}`;
}

describe('a new build', () => {
  it('takes over without reloading the open page, which offers Reload; the next load and the offline copy are the new build', async () => {
    const dist = await copyOfDist();
    const own = await startPrivateServer(dist);
    const { context, page, close } = await openPage(app.browser, { serviceWorker: true });
    try {
      await page.goto(own.url);
      await waitUntilSavedForOffline(page);
      expect(await page.getByRole('button', { name: 'Reload' }).count()).toBe(0);

      // "Deploy" a new build: every hashed file under a new name, the page and the worker's manifest to match.
      const marker = await simulateNewBuild(dist);

      // What the browser does on its own at the next navigation or within a day: check for a new worker.
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      const status = page.getByRole('status', { name: 'Offline copy' });
      await status.getByText('A new version is ready.').waitFor({ timeout: limit(30_000) });
      // The open page was not reloaded under the learner: it still shows the old build.
      expect(await page.evaluate(() => document.documentElement.outerHTML.includes('new build'))).toBe(false);

      await status.getByRole('button', { name: 'Reload' }).click();
      await page.waitForFunction((text) => document.documentElement.outerHTML.includes(text), marker);
      await status.getByText('Available offline').waitFor({ timeout: limit(30_000) });

      // Offline, the saved copy is the new build too.
      await context.setOffline(true);
      await page.reload();
      await page.getByText('Live host: In-browser worker').waitFor({ timeout: DEFAULT_BOOT_TIMEOUT_MS + limit(10_000) });
      expect(await page.evaluate((text) => document.documentElement.outerHTML.includes(text), marker)).toBe(true);
      // Its renamed lazy chunks (Monaco) come from the new cache as well.
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
    } finally {
      await close();
      await own.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});
