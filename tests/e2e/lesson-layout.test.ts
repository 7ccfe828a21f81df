// The study view on small and large screens, in real Chromium against the production build: at
// 1024×768, 1280×720 and 1920×1080, in English and Chinese, every exercise's lesson heading is in
// view without scrolling (near the top: the exercise list is compact) and no lesson code block is
// clipped at the right. The separator between lesson and editor moves by keyboard and by mouse and
// is remembered after a reload, as is the exercise list's disclosure; axe checks both controls.
// The sizes of one language share one page, resized between tests.

import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import type { Page } from 'playwright-core';
import { openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { limit } from './limits.ts';

// The exercises the page shows: the catalogue (a draft is not on the learner's path yet).
const EXERCISE_IDS = readCatalogueFromDisk()
  .exercises.map((exercise) => exercise.meta.id)
  .sort();

const app = useAppAndBrowser();

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;
/** How far down the lesson's heading may end, in CSS pixels, at every size. */
const HEADING_BOTTOM_MAX = 260;

async function open(size: { width: number; height: number }, locale = 'en-US'): Promise<TestPage> {
  const opened = await openPage(app.browser, { locale });
  await opened.page.setViewportSize(size);
  await opened.page.goto(`${app.url}?host=worker`);
  await opened.page.locator('[data-testid="lesson"] article h2').waitFor({ timeout: limit(20_000) });
  return opened;
}

/** Where the open lesson stands: its heading's box, and every code block that is clipped. */
function lessonLayout(page: Page) {
  return page.evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('[data-testid="lesson"]')!;
    const pane = scroller.getBoundingClientRect();
    // The lesson's visible content box: without its vertical scrollbar.
    const paneRight = pane.left + scroller.clientLeft + scroller.clientWidth;
    const heading = scroller.querySelector('article h2')!.getBoundingClientRect();
    const clipped = [...scroller.querySelectorAll<HTMLElement>('article pre')].flatMap((block) => {
      // The block's text wraps: nothing runs past its right edge. (A block that scrolled sideways
      // instead would have to be a tab stop to be read by keyboard; these are not.)
      const overflows = block.scrollWidth > block.clientWidth + 1;
      const scrolls = ['auto', 'scroll'].includes(getComputedStyle(block).overflowX) && block.tabIndex >= 0;
      const right = Math.max(...[block, ...block.querySelectorAll('*')].map((element) => element.getBoundingClientRect().right));
      const problems = [overflows && !scrolls ? `content ${block.scrollWidth}px in ${block.clientWidth}px` : '', right > paneRight + 1 ? `right edge ${Math.round(right)} beyond the lesson's ${Math.round(paneRight)}` : ''].filter(Boolean);
      return problems.length > 0 ? [`${block.textContent!.slice(0, 40)}: ${problems.join(', ')}`] : [];
    });
    return {
      title: scroller.querySelector('article h2')!.textContent,
      headingTop: heading.top,
      headingBottom: heading.bottom,
      viewport: window.innerHeight,
      scrolled: (document.scrollingElement?.scrollTop ?? 0) + (document.querySelector('.app-main')?.scrollTop ?? 0) + scroller.scrollTop,
      blocks: scroller.querySelectorAll('article pre').length,
      clipped,
    };
  });
}

async function exerciseIds(page: Page): Promise<string[]> {
  return page.locator('.exercise-nav__list button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-testid')!));
}

const separator = (page: Page) => page.getByRole('separator', { name: 'Resize the lesson and the editor' });
const valueNow = async (page: Page) => Number(await separator(page).getAttribute('aria-valuenow'));
const lessonWidth = (page: Page) => page.locator('#lesson-pane').evaluate((element) => element.getBoundingClientRect().width);

async function axeViolations(page: Page, selector: string): Promise<string[]> {
  // As in axe.ts: only violations are read, and with no child frame axe runs in the page itself.
  let builder = new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).options({ resultTypes: ['violations'] });
  if (page.frames().length === 1) builder = builder.setLegacyMode(true);
  const results = await builder.analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

describe('the lesson on small and large screens', () => {
  for (const locale of ['en-US', 'zh-CN']) {
    // One page per language, resized from one size to the next (the layout is CSS only: no script
    // waits for a resize), instead of a new context and a full load per size.
    describe(locale, () => {
      let opened: TestPage | undefined;
      beforeAll(async () => {
        opened = await open(SIZES[0], locale);
      });
      afterAll(async () => {
        await opened?.close();
      });
      for (const size of SIZES) {
        it(`${locale} at ${size.width}×${size.height}: every lesson starts near the top and no code block is clipped`, { timeout: limit(60_000) }, async () => {
          const { page, consoleLines } = opened!;
          await page.setViewportSize(size);
          const ids = await exerciseIds(page);
          // Every exercise the catalogue has (read from the folders, not a number to keep in step).
          expect([...ids].sort()).toEqual(EXERCISE_IDS.map((id) => `exercise-${id}`));
          let blocks = 0;
          for (const id of ids) {
            await page.getByTestId(id).click();
            await page.waitForFunction((testId) => document.querySelector(`[data-testid="${testId}"]`)?.getAttribute('aria-current') === 'true', id);
            // Each lesson loads when first opened (per exercise and language): measure it once it is in.
            await page.locator('[data-testid="lesson"] article h2').waitFor();
            const layout = await lessonLayout(page);
            expect(layout.scrolled, `${id}: nothing scrolled`).toBe(0);
            // The heading is in view, right under the page header and the exercise row: the lesson
            // is the main thing. (With the full list and the progress box above it, it sat at
            // 420-480 px, past the middle of a 768 px window.)
            expect(layout.headingTop, `${id}: heading top`).toBeGreaterThanOrEqual(0);
            expect(layout.headingBottom, `${id}: heading bottom`).toBeLessThanOrEqual(HEADING_BOTTOM_MAX);
            expect(layout.clipped, `${id} (${layout.title})`).toEqual([]);
            blocks += layout.blocks;
          }
          expect(blocks).toBeGreaterThan(5); // the lessons do have code blocks to check
          expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
        });
      }
    });
  }
});

describe('the separator between lesson and editor, and the exercise list', () => {
  it('moves by keyboard and by mouse, and both it and the list are remembered after a reload', { timeout: limit(60_000) }, async () => {
    const { page, close } = await open({ width: 1280, height: 720 });
    try {
      expect(await separator(page).getAttribute('aria-orientation')).toBe('vertical');
      expect(await separator(page).getAttribute('aria-controls')).toBe('lesson-pane');
      const start = await valueNow(page);
      const startWidth = await lessonWidth(page);

      // Keyboard: focus it (it is in the tab order) and use the arrows, Home and End.
      await separator(page).focus();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('separator');
      for (let press = 0; press < 3; press++) await page.keyboard.press('ArrowRight');
      expect(await valueNow(page)).toBe(start + 6);
      expect(await lessonWidth(page)).toBeGreaterThan(startWidth + 40);
      await page.keyboard.press('Home');
      expect(await valueNow(page)).toBe(Number(await separator(page).getAttribute('aria-valuemin')));
      await page.keyboard.press('End');
      expect(await valueNow(page)).toBe(Number(await separator(page).getAttribute('aria-valuemax')));
      await page.keyboard.press('PageDown');
      await page.keyboard.press('ArrowLeft');
      const chosen = await valueNow(page);
      expect(await separator(page).getAttribute('aria-valuetext')).toBe(`Lesson ${chosen}%, editor ${100 - chosen}%`);

      await page.reload();
      await separator(page).waitFor();
      expect(await valueNow(page)).toBe(chosen);

      // Mouse: drag it to 60% of the study view's width.
      const study = (await page.locator('.app-main__study').boundingBox())!;
      const handle = (await separator(page).boundingBox())!;
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(study.x + study.width * 0.6, handle.y + handle.height / 2, { steps: 5 });
      await page.mouse.up();
      expect(Math.abs((await valueNow(page)) - 60)).toBeLessThanOrEqual(1);
      const dragged = await valueNow(page);
      await page.reload();
      await separator(page).waitFor();
      expect(await valueNow(page)).toBe(dragged);

      // The exercise list: compact, with export/import behind a disclosure button that keys open.
      const toggle = page.getByRole('button', { name: 'Titles and progress' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('button', { name: 'Export progress' }).isVisible()).toBe(false);
      // Every exercise is still one click away, by its title.
      expect(await page.getByRole('button', { name: /Frames on stdin and stdout/ }).isVisible()).toBe(true);
      expect(await axeViolations(page, '.exercise-nav')).toEqual([]);
      expect(await axeViolations(page, '.study-separator')).toEqual([]);
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await page.getByRole('button', { name: 'Export progress' }).waitFor();
      expect(await axeViolations(page, '.exercise-nav')).toEqual([]);
      await page.reload();
      await page.getByRole('button', { name: 'Export progress' }).waitFor();
      expect(await page.getByRole('button', { name: 'Titles and progress' }).getAttribute('aria-expanded')).toBe('true');
    } finally {
      await close();
    }
  });
});
