// The protocol view's first screen (issue 23): at 1280×720 and 1024×768, in English and Chinese,
// each scene's first arrow is drawn inside the viewport with nothing scrolled — the page and every
// scrolling box around the diagram stay at 0 — and an HTTP scene shows nothing that is stdio's
// (the failure lab, the framing comparison, the era cards, the stdio status line with its framing).

import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { limit } from './limits.ts';

export const FIRST_SCREEN_SIZES = [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
] as const;

const STDIO_ONLY = ['more-lab', 'more-framing', 'more-era', 'stepper', 'stepper-status', 'failure-lab', 'framing-compare', 'era-panel'];

/** How far the page, and every box around `selector`'s first match, are scrolled (all 0 on a first screen). */
function scrolled(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((css) => {
    const offsets = [window.scrollY, document.documentElement.scrollTop];
    for (let node = document.querySelector(css)?.parentElement ?? null; node; node = node.parentElement) offsets.push(node.scrollTop);
    return offsets;
  }, selector);
}

/** Choose `scene`, take one Step, and check that its first arrow is on the first screen. */
export async function expectFirstArrowOnFirstScreen(page: Page, scene: string, size: { width: number; height: number }): Promise<void> {
  const http = scene.startsWith('http-');
  await page.locator(`input[name=protocol-scene][value=${scene}]`).check();
  const stepper = page.getByTestId(http ? 'http-stepper' : 'stepper');
  await stepper.waitFor();
  const arrow = http ? '[data-testid=http-arrow]' : '[data-testid=diagram-arrow]';
  // A fresh run: Restart (the first control), then one Step.
  await stepper.locator('.stepper__controls button').first().click();
  await page.waitForFunction((css) => document.querySelector(css) === null, arrow, { timeout: limit(10_000) });
  await stepper.locator('.stepper__controls button.primary').click();
  await page.locator(arrow).first().waitFor({ timeout: limit(30_000) });
  const box = await page.locator(arrow).first().boundingBox();
  const where = `${scene} at ${size.width}×${size.height} (${await page.evaluate(() => document.documentElement.lang)})`;
  expect(box, where).not.toBeNull();
  expect(box!.y, where).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, where).toBeLessThanOrEqual(size.height);
  expect(box!.x + box!.width, where).toBeLessThanOrEqual(size.width);
  expect((await scrolled(page, arrow)).every((offset) => offset === 0), `${where}: nothing scrolled`).toBe(true);
  if (http) {
    for (const id of STDIO_ONLY) expect(await page.getByTestId(id).count(), `${where}: no ${id}`).toBe(0);
    expect(await page.locator('#protocol-view').textContent(), where).not.toMatch(/framing Content-Length|分帧 Content-Length/);
  }
}

/** Every size and both languages on one page (the language switch in the header, as a learner would). */
export async function expectFirstScreens(page: Page, scenes: readonly string[]): Promise<void> {
  // One choice, not switches that could disagree: the six scenes and no transport or era switch.
  expect(await page.locator('input[name=protocol-scene]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
    'stdio-handshake',
    'stdio-modern',
    'stdio-probe',
    'http-handshake',
    'http-modern',
    'http-auth',
  ]);
  expect(await page.locator('[data-testid=transport-switch], [data-testid=era-switch], [data-testid=server-era]').count()).toBe(0);
  for (const language of ['English', '中文']) {
    await page.getByRole('button', { name: language, exact: true }).click();
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language === 'English' ? 'en' : 'zh-CN', { timeout: limit(10_000) });
    for (const size of FIRST_SCREEN_SIZES) {
      await page.setViewportSize(size);
      for (const scene of scenes) await expectFirstArrowOnFirstScreen(page, scene, size);
    }
  }
  await page.getByRole('button', { name: 'English', exact: true }).click();
}
