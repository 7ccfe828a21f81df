// The learner's whole path with the keyboard alone, in real Chromium against the production build:
// open an exercise, put the reference in (Solve → Use the reference → confirm), run its tests, go
// to the protocol view, step the handshake, open a frame in the byte inspector and close it with
// Escape. Only key presses move focus and act: no clicks, no element.focus() from the test. The
// test reads document.activeElement to know where focus is, as a screen reader would announce it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { openPage, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

const EXERCISE = '02-frames';
const EXERCISE_TITLE = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'exercises', EXERCISE, 'meta.json'), 'utf8')) as { title: { en: string } }).title.en;

interface Focused {
  tag: string;
  role: string | null;
  /** aria-label, else the text: what a screen reader would say first. */
  name: string;
  className: string;
  inEditor: boolean;
  inDialog: boolean;
}

async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    return {
      tag: element.tagName.toLowerCase(),
      role: element.getAttribute('role'),
      name: (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim(),
      className: element.getAttribute('class') ?? '',
      inEditor: element.closest('.monaco-editor') !== null,
      inDialog: element.closest('dialog[open]') !== null,
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches. Inside Monaco, Tab types a tab, so
 * the test does what the editor's hint says: Ctrl+M switches Tab to moving focus, and again after
 * to switch it back.
 */
async function tabTo(page: Page, matches: (focus: Focused) => boolean, description: string, options: { backwards?: boolean; maxStops?: number } = {}): Promise<Focused> {
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  const visited: string[] = [];
  for (let stop = 0; stop < (options.maxStops ?? 150); stop++) {
    const before = await focused(page);
    if (before?.inEditor) {
      await page.keyboard.press('Control+M');
      await page.keyboard.press(key);
      await page.keyboard.press('Control+M');
    } else {
      await page.keyboard.press(key);
    }
    const focus = await focused(page);
    if (focus && matches(focus)) return focus;
    visited.push(focus ? `${focus.tag}${focus.role ? `[${focus.role}]` : ''} ${focus.name.slice(0, 40)}` : '(body)');
  }
  throw new Error(`${key} never reached ${description}; visited:\n${visited.join('\n')}`);
}

const button = (name: string | RegExp) => (focus: Focused) => (focus.tag === 'button' || focus.role === 'button') && (typeof name === 'string' ? focus.name === name : name.test(focus.name));

describe('the keyboard-only path', () => {
  it('opens an exercise, solves and runs it, steps the handshake and inspects a frame, with keys alone', { timeout: limit(150_000) }, async () => {
    const { page, close, consoleLines } = await openPage(app.browser);
    try {
      await page.goto(`${app.url}?host=worker`);
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });

      // 1. Open exercise 2 from the exercise list.
      await tabTo(page, (focus) => focus.tag === 'button' && focus.name.includes(EXERCISE_TITLE), `the "${EXERCISE_TITLE}" exercise button`);
      await page.keyboard.press('Enter');
      await page.waitForFunction((title) => [...document.querySelectorAll('.exercise-nav button[aria-current="true"]')].some((node) => node.textContent?.includes(title) === true), EXERCISE_TITLE);
      expect(await page.locator('[data-testid="lesson"] article h2').first().textContent()).toBe(EXERCISE_TITLE);

      // 2. Solve → Use the reference → the dialog starts on Cancel; Tab to "Replace my code", Enter.
      await tabTo(page, button('Solve'), 'Solve');
      await page.keyboard.press('Enter');
      await page.getByTestId('diff-editor').locator('.monaco-diff-editor').waitFor({ timeout: limit(15_000) });
      await tabTo(page, button('Use the reference'), 'Use the reference');
      await page.keyboard.press('Space');
      await page.getByRole('dialog', { name: 'Replace your code in frames.ts with the reference solution?' }).waitFor();
      expect(await focused(page)).toMatchObject({ name: 'Cancel', inDialog: true });
      await tabTo(page, button('Replace my code'), 'Replace my code', { maxStops: 5 });
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Replace your code in frames.ts with the reference solution?' }).waitFor({ state: 'hidden' });
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(15_000) });

      // 3. Run the tests from the Run button: all pass and the exercise is marked complete.
      await tabTo(page, button('Run tests'), 'Run tests', { backwards: true });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid="run-status"]')?.dataset.status === 'pass', undefined, { timeout: limit(20_000) });
      await page.getByTestId('completed-badge').waitFor();

      // 4. The protocol view, from the header's navigation.
      await tabTo(page, (focus) => focus.tag === 'a' && focus.name === 'Protocol', 'the Protocol link', { backwards: true });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.location.hash.startsWith('#protocol'));
      await page.locator('[data-testid="host-badge"].host-badge--chosen').waitFor({ timeout: limit(15_000) });

      // 5. Step the handshake: once with Enter on the Step button, then with → and Space on the
      //    diagram (the stepper's documented keys), which stays focusable while a step runs.
      const shown = (n: number) =>
        page.waitForFunction(
          (count) =>
            document.querySelector('[data-testid=stepper-progress]')?.textContent?.startsWith(`Step ${count} of`) === true &&
            ['ready', 'done', 'idle'].includes(document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') ?? ''),
          n,
          { timeout: limit(20_000) },
        );
      await tabTo(page, button(/^Step ▶$/), 'the Step button');
      await page.keyboard.press('Enter');
      await shown(1);
      await tabTo(page, (focus) => focus.className.includes('stepper__diagram'), 'the sequence diagram');
      await page.keyboard.press('ArrowRight');
      await shown(2);
      await page.keyboard.press('Space');
      await shown(3);
      expect(await page.getByTestId('diagram-arrow').count()).toBe(3);

      // 6. Open the initialize request in the byte inspector from its arrow, then Escape.
      const arrow = await tabTo(page, (focus) => focus.role === 'button' && focus.name.startsWith('client → server: initialize'), 'the initialize arrow');
      await page.keyboard.press('Enter');
      const inspector = page.getByTestId('byte-inspector');
      await inspector.waitFor();
      expect(await page.locator('dialog.inspector-dialog').evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
      expect(await inspector.textContent()).toContain('initialize');
      expect((await focused(page))?.inDialog).toBe(true);
      await page.keyboard.press('Escape');
      await inspector.waitFor({ state: 'detached' });
      // Focus comes back to the arrow it was opened from, so the learner can go on from there.
      expect((await focused(page))?.name).toBe(arrow.name);

      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('every control reached with Tab on the study view shows an outline or a ring', { timeout: limit(60_000) }, async () => {
    const { page, close } = await openPage(app.browser);
    try {
      await page.goto(`${app.url}?host=worker`);
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      const unmarked: string[] = [];
      let reached = 0;
      // The first 40 stops cover the header, the exercise list, the lesson, the workspace buttons.
      for (let stop = 0; stop < 40; stop++) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element || element === document.body) return null;
          // Monaco draws its own cursor and border in its textarea; the editor frame is checked by its own rule.
          if (element.closest('.monaco-editor')) return { name: 'monaco', visible: true };
          const style = getComputedStyle(element);
          const visible = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
          return { name: `${element.tagName.toLowerCase()} ${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''}`, visible };
        });
        if (focus) reached += 1;
        if (focus && !focus.visible) unmarked.push(focus.name);
      }
      expect(reached).toBeGreaterThan(20);
      expect(unmarked).toEqual([]);
    } finally {
      await close();
    }
  });
});
