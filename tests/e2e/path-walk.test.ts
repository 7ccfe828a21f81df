// The chapter as one path (issue 23): from a fresh page a learner goes from exercise 1 to the last
// by "Next" alone, through each exercise's stations — Build (the reference, through Solve, as a
// learner who gives up would; Run right after "Replace my code", before the diff editor is done,
// so what runs must be the reference and not the starter it replaced) → See it live (the scene
// lands, driven by the learner's code where the scene runs it, the first arrow on the first screen)
// → Break it (the exercise's failure cards open and in view) → the next exercise. Half the walk is
// in English at 1280×720, the other half in Chinese at 1024×768, switched as a learner would.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openPage, useAppAndBrowser } from './browser.ts';
import { expectFirstArrowOnFirstScreen } from './first-screen.ts';
import { limit } from './limits.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import en from '../../src/locales/en/exercise.json';
import zh from '../../src/locales/zh-CN/exercise.json';

const app = useAppAndBrowser();
const EXERCISES = readCatalogueFromDisk().exercises.map((exercise) => exercise.meta).sort((a, b) => a.order - b.order);

type Text = typeof en;
/** The study view's words in the page's language, from the app's own locale files. */
const words = (text: Text) => ({
  solve: text.workspace.solve,
  use: text.solution.use,
  confirm: text.solution.confirm,
  run: text.workspace.run,
});

/** What each exercise's live station must show once it has landed. */
const LIVE: Record<number, (page: Page) => Promise<unknown>> = {
  1: (page) => scene(page, 'stdio-handshake', false),
  2: (page) => scene(page, 'stdio-handshake', false),
  3: (page) => scene(page, 'stdio-handshake', true),
  4: (page) => inUpperHalf(page, '[data-testid="sdk-checks"]'),
  // The merge, with the learner's registerMcpTools chosen.
  5: (page) => page.locator('input[name="agent-code"]').nth(1).and(page.locator(':checked')).waitFor(),
  6: (page) => scene(page, 'http-handshake', true),
  7: (page) => scene(page, 'stdio-modern', true),
  // The sign-in needs Node: on the worker host the scene says so and offers the recorded one.
  8: (page) => page.locator('#protocol-view[data-scene="http-auth"] [data-testid="auth-worker-note"]').waitFor(),
};

/** The failure cards each "Break it" opens. */
const CARDS: Record<number, string> = { 2: 'more-lab', 3: 'more-lab', 5: 'more-lab', 6: 'http-cards-details', 7: 'more-era', 8: 'auth-cards-details' };

async function scene(page: Page, name: string, learnerDrives: boolean): Promise<void> {
  await page.locator(`#protocol-view[data-scene="${name}"]`).waitFor();
  const driver = name.startsWith('http-') ? 'http-driver' : 'stepper-driver';
  await page.waitForFunction(
    ([id, learner]) => document.querySelector(`[data-testid="${id}"]`)?.classList.contains('is-learner') === learner,
    [driver, learnerDrives] as const,
  );
}

/** The element's top is in the upper half of the window, and only the app's scroll container moved (the header stays). */
async function inUpperHalf(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((css) => {
    const top = document.querySelector(css)?.getBoundingClientRect().top ?? -1;
    return top >= 0 && top < window.innerHeight / 2;
  }, selector);
  expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0), selector).toBe(0);
}

/** The station bar, and so its "Next", is on screen wherever the station's link scrolled the view. */
async function barInSight(page: Page, where: string): Promise<void> {
  const box = await page.getByTestId('station-bar').locator('visible=true').boundingBox();
  expect(box, where).not.toBeNull();
  expect(box!.y, where).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, where).toBeLessThanOrEqual(page.viewportSize()!.height);
}

async function studyShowing(page: Page, id: string): Promise<void> {
  await page.waitForFunction((testId) => {
    const study = document.querySelector<HTMLElement>('.app-main__study');
    return study !== null && !study.hidden && document.querySelector(`[data-testid="${testId}"]`)?.getAttribute('aria-current') === 'true';
  }, `exercise-${id}`);
}

/** Solve → Use the reference → Replace my code, then Run at once: all green. */
async function buildWithTheReference(page: Page, text: ReturnType<typeof words>): Promise<void> {
  await page.getByRole('button', { name: text.solve, exact: true }).click();
  await page.waitForFunction((label) => [...document.querySelectorAll('button')].some((button) => button.textContent === label && !button.disabled), text.use);
  await page.getByRole('button', { name: text.use, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: text.confirm, exact: true }).click();
  const status = page.getByTestId('run-status');
  const before = Number((await status.count()) > 0 ? await status.getAttribute('data-seq') : 0);
  await page.getByRole('button', { name: text.run, exact: true }).click();
  await page.waitForFunction(
    (previous) => {
      const element = document.querySelector<HTMLElement>('[data-testid="run-status"]');
      return element !== null && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
    },
    before,
    { timeout: limit(30_000) },
  );
  expect(await status.getAttribute('data-status'), (await status.textContent()) ?? '').toBe('pass');
}

describe('one path through the chapter', () => {
  it('goes from exercise 1 to the last by "Next" alone, through every live scene and failure card, in both languages', { timeout: limit(240_000) }, async () => {
    const { page, close, consoleLines } = await openPage(app.browser);
    try {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(`${app.url}?host=worker`);
      let text = words(en);
      let chinese = false;
      let size: { width: number; height: number } = { width: 1280, height: 720 };
      await studyShowing(page, EXERCISES[0]!.id);
      for (const [index, exercise] of EXERCISES.entries()) {
        const { order } = exercise;
        // The second half in Chinese on the smaller screen, switched in the header.
        if (index === Math.floor(EXERCISES.length / 2)) {
          await page.getByRole('button', { name: '中文', exact: true }).click();
          await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
          size = { width: 1024, height: 768 };
          await page.setViewportSize(size);
          text = words(zh);
          chinese = true;
        }
        const where = `exercise ${order} (${chinese ? 'zh' : 'en'})`;
        await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
        await buildWithTheReference(page, text);

        // Build → See it live: the first link of "What next", by keyboard on odd exercises, by mouse on even.
        const live = page.getByTestId('next-station').getByTestId('next-live');
        if (order % 2 === 1) {
          await live.focus();
          await page.keyboard.press('Enter');
        } else await live.click();
        const bar = page.getByTestId('station-bar').locator('visible=true');
        await page.locator('[data-testid="station-bar"][data-station="live"]').locator('visible=true').waitFor();
        expect(await bar.locator('.station-bar__where').textContent(), where).toContain(chinese ? `练习 ${order}，` : `Exercise ${order},`);
        await LIVE[order]!(page);
        // A live scene is new: its view opens at the top, not where the learner last left that view
        // (exercise 4's lands lower, on Check my server).
        if (order !== 4) await page.waitForFunction(() => document.querySelector('.app-main')?.scrollTop === 0);
        await barInSight(page, `${where}, live`);
        // The scene's first arrow is on the first screen, the bar above it notwithstanding (the
        // first exercise in English at 1280×720, the last stepper's, exercise 7, in Chinese at 1024×768).
        if (order === 1 || order === 7) await expectFirstArrowOnFirstScreen(page, order === 1 ? 'stdio-handshake' : 'stdio-modern', size);

        // See it live → Break it, where the exercise has failure cards.
        const cards = CARDS[order];
        if (cards !== undefined) {
          await bar.getByTestId('station-next').click();
          await page.locator('[data-testid="station-bar"][data-station="break"]').locator('visible=true').waitFor();
          await page.waitForFunction((id) => (document.querySelector(`[data-testid="${id}"]`) as HTMLDetailsElement | null)?.open === true, cards);
          await inUpperHalf(page, `[data-testid="${cards}"]`);
          await barInSight(page, `${where}, break`);
          // The bar as axe reads it, once per language (a landmark with a name, links and a button).
          if (order === 2 || order === 6) await expectAccessible(page, `the station bar, ${where}`, { include: '.station-bar' });
        }
        // → the next exercise, or the end of the chapter.
        const next = EXERCISES[index + 1];
        if (next === undefined) {
          await bar.locator('.station-bar__done').waitFor();
          expect(await bar.getByTestId('station-next').count(), where).toBe(0);
        } else {
          await bar.getByTestId('station-next').focus();
          await page.keyboard.press('Enter');
          await studyShowing(page, next.id);
          // The study view has no station bar: it is the path's own place.
          expect(await page.getByTestId('station-bar').locator('visible=true').count(), where).toBe(0);
        }
      }
      // The path map: every exercise passed, each marked as taken from the reference.
      for (const exercise of EXERCISES) {
        expect(await page.getByTestId(`exercise-${exercise.id}`).getAttribute('data-marks'), exercise.id).toBe('passed reference');
      }
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
