// The header's links land where they say, at 1280×720 and 1024×768: a view opens at its top the
// first time and where the learner left it on a return (the views share one scroll container, so
// without this they opened at the previous view's position); the live panel is brought into sight
// without leaving the view or scrolling the header away; aria-current marks the view that shows.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

const mainScroll = (page: Page) => page.evaluate(() => document.querySelector('.app-main')!.scrollTop);
const current = (page: Page) => page.evaluate(() => document.querySelector('.app-header__nav [aria-current="page"]')?.textContent ?? null);

/** The scroll container's position and heights, and what sits above the views (notices). */
const scrollBox = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector<HTMLElement>('.app-main')!;
    const protocol = document.querySelector<HTMLElement>('.app-main__protocol');
    const live = document.getElementById('live-panel');
    return `scrollTop ${main.scrollTop} of ${main.scrollHeight} (client ${main.clientHeight}), protocol view ${protocol?.offsetTop}+${protocol?.offsetHeight}, live panel ${live?.offsetHeight}`;
  });

async function scrollMainTo(page: Page, top: number): Promise<number> {
  return page.evaluate((to) => {
    const main = document.querySelector('.app-main')!;
    main.scrollTop = to;
    return main.scrollTop;
  }, top);
}

describe('navigation', () => {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1024, height: 768 },
  ]) {
    it(`at ${viewport.width}×${viewport.height}: each view opens at its top, returns where it was left, and the live panel comes without leaving the view`, async () => {
      const { page, close } = await openPage(app.browser);
      try {
        await page.setViewportSize(viewport);
        await page.goto(`${app.url}?host=worker#protocol`);
        await page.getByRole('heading', { name: 'Protocol, frame by frame', level: 2 }).waitFor();
        // The view has finished rendering what it renders on its own (its height holds still over
        // several checks), so nothing above the place the test scrolls to moves later.
        let height = -1;
        await expect
          .poll(
            async () => {
              const now = await page.evaluate(() => document.querySelector('.app-main')!.scrollHeight);
              const still = now === height;
              height = now;
              return still;
            },
            { timeout: limit(30_000), interval: 500 },
          )
          .toBe(true);
        // Down the long protocol view, then to the Chapter loop: its top, not the same offset.
        expect(await scrollMainTo(page, 1500)).toBeGreaterThan(300);
        // What the learner sees at the top of the view just before leaving: that element, at that place.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const left = await page.evaluate(() => {
          const main = document.querySelector('.app-main')!.getBoundingClientRect();
          const seen = document.elementFromPoint(main.left + main.width / 2, main.top + 60)!;
          seen.setAttribute('data-seen-before-leaving', '');
          return seen.getBoundingClientRect().top - main.top;
        });
        // What the scroll container held when the view was left, for the message if it lands elsewhere.
        const leftBox = await scrollBox(page);
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Chapter loop' }).click();
        // The address changes at once, the view when React commits it (later on a busy machine):
        // read the scroll position only once the header marks the view.
        await page.waitForFunction(() => window.location.hash === '#chapter-loop' && document.querySelector('.app-header__nav [aria-current="page"]')?.textContent === 'Chapter loop');
        expect(await mainScroll(page)).toBe(0);
        expect(await current(page)).toBe('Chapter loop');
        // Back to the protocol view: where it was left.
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Protocol' }).click();
        await page.waitForFunction(() => window.location.hash === '#protocol' && document.querySelector('.app-header__nav [aria-current="page"]')?.textContent === 'Protocol');
        // Not necessarily the same scrollTop: the browser's scroll anchoring keeps that content in
        // place if the view's height changed while hidden. The same element is where it was.
        const back = await page.evaluate(() => document.querySelector('[data-seen-before-leaving]')!.getBoundingClientRect().top - document.querySelector('.app-main')!.getBoundingClientRect().top);
        expect(await mainScroll(page)).toBeGreaterThan(300);
        expect(Math.abs(back - left), `back at ${back} px, left at ${left} px from the top; left ${leftBox}, back ${await scrollBox(page)}`).toBeLessThan(40);
        expect(await current(page)).toBe('Protocol');
        // The live panel: the same view, still marked, the header still in sight, focus on the panel.
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Live panel' }).click();
        await page.waitForFunction(() => document.activeElement?.id === 'live-panel-heading');
        expect(await page.evaluate(() => window.location.hash)).toBe('#protocol');
        expect(await current(page)).toBe('Protocol');
        expect(await page.evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
        expect(await page.evaluate(() => document.querySelector('.app-header')!.getBoundingClientRect().top)).toBe(0);
        const panelTop = await page.evaluate(() => document.getElementById('live-panel')!.getBoundingClientRect().top - document.querySelector('.app-main')!.getBoundingClientRect().top);
        expect(Math.abs(panelTop)).toBeLessThan(2);
      } finally {
        await close();
      }
    });
  }
});
