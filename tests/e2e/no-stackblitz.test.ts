// A page load contacts nobody but its own server: the WebContainer (whose runtime loads from
// StackBlitz) is not probed until the learner chooses it. Every request the page makes is
// recorded; the control, choosing the WebContainer, shows the recorder does see a StackBlitz request.

import { describe, expect, it } from 'vitest';
import { openPage, useAppAndBrowser } from './browser.ts';
import { limit, UNBOOTABLE_WEBCONTAINER_MS } from './limits.ts';

const app = useAppAndBrowser();
/** A wait's limit, scaled for this machine (tests/e2e/limits.ts). */
const wait = (quietMs = 30_000) => limit(quietMs);

describe('no third-party request at page load', () => {
  it('loads, picks a host and renders without contacting StackBlitz; choosing the WebContainer does', async () => {
    const own = new URL(app.url).origin;
    // No host but loopback resolves in the suite's browser (chromium.ts), but every attempt is still recorded.
    const { page, close } = await openPage(app.browser, { limits: { webContainerBootMs: UNBOOTABLE_WEBCONTAINER_MS } });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== own && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) foreign.push(request.url());
    });
    // A frame counts by where it navigates (our learner-code sandbox frame is one of our files;
    // a WebContainer frame would be StackBlitz's), not by its empty URL when attached.
    page.on('framenavigated', (frame) => {
      const url = frame.url();
      if (frame !== page.mainFrame() && url !== 'about:blank' && !url.startsWith(`${own}/`)) foreign.push(`frame ${url}`);
    });
    try {
      await page.goto(app.url);
      await page.getByText('Live host: Local bridge').waitFor({ timeout: wait() });
      await page.getByRole('heading', { name: 'Three message shapes' }).waitFor({ timeout: wait() });
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: wait() });
      // Host selection has settled (the bridge chosen, the WebContainer row final): any host the
      // page would ask at load has been asked. (Not 'networkidle': since no route intercepts the
      // page's requests, Playwright's idle wait hung for its whole limit in 1 of 4 runs here.)
      const row = page.getByRole('list', { name: 'Host' }).getByRole('listitem').filter({ hasText: 'WebContainer' });
      await row.filter({ hasText: 'tried only when you choose it' }).waitFor({ timeout: wait() });
      expect(foreign).toEqual([]);

      // The control: the learner chooses the WebContainer; now (and only now) StackBlitz is asked.
      await page.getByRole('button', { name: 'Try the WebContainer' }).click();
      await expect.poll(() => foreign.some((url) => /stackblitz|webcontainer/i.test(url)), { timeout: wait() }).toBe(true);
      // With no network it cannot boot: the page says so and keeps the bridge.
      await page.getByRole('list', { name: 'Host' }).getByRole('listitem').filter({ hasText: /did not boot within/ }).waitFor({ timeout: UNBOOTABLE_WEBCONTAINER_MS + wait(5000) });
      await page.getByText('Live host: Local bridge').waitFor({ timeout: wait() });
    } finally {
      await close();
    }
  });
});
