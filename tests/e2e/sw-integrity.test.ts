// The service worker serves nothing from its cache that the build did not put there: the test
// itself, from the page (as learner code on the origin could), writes a poisoned body over a
// precached /assets/*.js URL, checks it really is in the cache (so the test can fail), reloads,
// and the page still runs the real file. Also: the bridge token's answer is in no cache.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
/** A wait's limit, scaled for this machine (tests/e2e/limits.ts). */
const wait = (quietMs = 30_000) => limit(quietMs);
const POISON = 'document.documentElement.dataset.poisoned = "yes";';

async function waitUntilControlledAndSaved(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: wait() });
  await page.getByRole('status', { name: 'Offline copy' }).getByText('Available offline').waitFor({ timeout: wait() });
}

describe('service worker integrity', () => {
  it('does not serve a poisoned precache entry: the page loads the real script and the cache is repaired', async () => {
    const { page, consoleLines, close } = await openPage(app.browser, { serviceWorker: true });
    try {
      await page.goto(app.url);
      await waitUntilControlledAndSaved(page);

      // The attack: overwrite the page's entry script in the precache, as code on the origin could.
      const attack = await page.evaluate(async (poison) => {
        const script = document.querySelector<HTMLScriptElement>('script[type="module"][src*="/assets/"]');
        if (!script) throw new Error('no module script under /assets/ in the page');
        const url = new URL(script.src, location.href).href;
        const name = (await caches.keys()).find((key) => key.includes('precache'));
        if (!name) throw new Error('no precache');
        const cache = await caches.open(name);
        const real = await (await cache.match(url))?.text();
        await cache.put(url, new Response(poison, { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cross-Origin-Resource-Policy': 'same-origin' } }));
        // The control: the poisoned body really is what the cache now holds for that URL.
        const stored = await (await cache.match(url))?.text();
        return { url, name, realWasCached: typeof real === 'string' && real.length > 1000, stored };
      }, POISON);
      expect(attack.realWasCached).toBe(true);
      expect(attack.stored).toBe(POISON);

      await page.reload();
      // The real app renders (its entry script ran) and the poisoned one did not run.
      await page.getByRole('heading', { name: 'Three message shapes' }).waitFor({ timeout: wait() });
      expect(await page.evaluate(() => document.documentElement.dataset.poisoned ?? null)).toBeNull();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      // The worker went to the network and saved the real file again.
      const repaired = await page.evaluate(async ({ url, name }) => (await (await caches.open(name)).match(url))?.text(), attack);
      expect(repaired).not.toBe(POISON);
      expect(repaired?.length ?? 0).toBeGreaterThan(1000);

      // The bridge token was fetched (the bridge is live) and no cache holds its answer.
      await page.getByText('Live host: Local bridge').waitFor({ timeout: wait() });
      const tokenCached = await page.evaluate(async () => {
        for (const name of await caches.keys()) {
          if ((await (await caches.open(name)).keys()).some((request) => request.url.includes('__bridge'))) return true;
        }
        return false;
      });
      expect(tokenCached).toBe(false);
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
