// The exercise UI in real Chromium against the production build: exercise 1's starter fails, the
// reference (through Solve → Use the reference, a real learner's path) passes and marks it
// complete, the code survives a reload, Reset asks and keeps the mark, a lesson links to another
// exercise (every exercise's reference passing, and the path after it: path-walk.test.ts); an infinite loop becomes a
// timeout and the page stays usable; a syntax error names its line and marks it in the editor;
// saved progress that cannot be read is a notice, not a crash.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { limit } from './limits.ts';

/** The exercises the page lists, as many as exercises/ holds. */
const EXERCISE_COUNT = readCatalogueFromDisk().exercises.length;

const app = useAppAndBrowser();

// The worker host needs no probing: these tests are about the exercises, not the live panel.
async function open(options: { locale?: string } = {}): Promise<TestPage> {
  const opened = await openPage(app.browser, { locale: options.locale });
  await opened.page.goto(`${app.url}?host=worker`);
  await editorReady(opened.page);
  return opened;
}

async function editorReady(page: Page): Promise<void> {
  await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
}

/** The text of the editor's first rendered lines (Monaco only renders what is visible). */
async function editorText(page: Page): Promise<string> {
  return (await page.getByTestId('code-editor').locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}

async function waitForEditorText(page: Page, text: string): Promise<void> {
  await page.waitForFunction((expected) => {
    const lines = document.querySelector('[data-testid="code-editor"] .view-lines');
    return lines?.textContent?.replace(/\u00a0/g, ' ').includes(expected) === true;
  }, text);
}

async function runAndWait(page: Page, start: () => Promise<void>, status: 'pass' | 'fail' | 'error', quietMs = 10_000): Promise<void> {
  const summary = page.getByTestId('run-status');
  const before = Number(await summary.getAttribute('data-seq'));
  await start();
  await page.waitForFunction(
    (previous) => {
      const element = document.querySelector('[data-testid="run-status"]');
      return element instanceof HTMLElement && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
    },
    before,
    { timeout: limit(quietMs) },
  );
  expect(await summary.getAttribute('data-status'), (await summary.textContent()) ?? '').toBe(status);
}

/** Replaces the learner's code by typing, as a learner would (select all, type). */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByTestId('code-editor').locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(code);
}

const runButton = (page: Page) => page.getByRole('button', { name: 'Run tests' });

describe('the exercises in Chromium (production build)', () => {
  it('fails on the starter, passes with the reference, remembers the code, and resets on request', { timeout: limit(90_000) }, async () => {
    const { page, close, consoleLines } = await open();
    try {
      expect(await page.getByRole('button', { name: /The JSON-RPC 2.0 codec/ }).getAttribute('aria-current')).toBe('true');
      expect(await page.getByRole('heading', { name: 'Three message shapes' }).count()).toBe(1);
      expect(await page.getByRole('textbox', { name: 'Code editor for jsonrpc.ts' }).count()).toBe(1);
      expect(await page.getByText('Tab inserts a tab; press Ctrl+M (⌃⇧M on Mac) to make Tab move focus.').isVisible()).toBe(true);

      await runAndWait(page, () => runButton(page).click(), 'fail');
      // Nobody has reached for the editor yet, so TypeScript's worker (7 MB) is not even fetched.
      const typeScriptWorkerFetched = () => page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/ts.worker')));
      expect(await typeScriptWorkerFetched()).toBe(false);
      const tests = page.getByTestId('test-result');
      const count = await tests.count();
      expect(count).toBeGreaterThan(10);
      expect(await tests.first().textContent()).toContain('Building the three shapes › encodeRequest');
      expect(await tests.first().getAttribute('data-status')).toBe('error');
      // The results as a learner first reads them: nothing serious for axe.
      await expectAccessible(page, 'the study view after a run');
      // Each test names the lesson section it checks (rules.json); "Read" scrolls the lesson there, by keyboard.
      await tests.first().getByRole('link', { name: 'Read: Three message shapes' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'lesson-three-shapes');
      // A failing test's "Hint" opens the hint for its own section, not the file's first: a parsing
      // test opens the third hint (parsing and error codes). The hints then go on from that rule.
      const parsing = tests.filter({ hasText: 'parseMessage refuses malformed messages › a request whose id is null' });
      await parsing.getByRole('button', { name: 'Hint for “Parsing is validating”' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'hint-2');
      expect(await page.locator('#hint-2 .hints__about').textContent()).toBe('For: Parsing is validating · Errors are responses too');
      expect(await page.getByTestId('hint-count').textContent()).toBe('1 of 5 hints shown');
      await page.getByRole('button', { name: 'Show the next hint' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'hint-3');
      expect(await page.locator('#hint-3 .hints__about').textContent()).toBe('For: Parsing is validating');
      expect(await page.getByTestId('hint-count').textContent()).toBe('2 of 5 hints shown');
      await expectAccessible(page, 'the study view with a failing test’s hint open');

      // Solve shows the reference beside the learner's code and gives the comparison the room: at
      // 1280×720 at least half the window's height, with the earlier results set aside.
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.getByRole('button', { name: 'Solve' }).click();
      await page.getByTestId('diff-editor').locator('.monaco-diff-editor').waitFor({ timeout: limit(15_000) });
      await page.getByTestId('results-hidden').waitFor();
      expect(await page.getByTestId('results').count()).toBe(0);
      await page.waitForFunction(() => (document.querySelector('[data-testid="diff-editor"]')?.getBoundingClientRect().height ?? 0) >= 360, undefined, { timeout: limit(5000) });
      await expectAccessible(page, 'Solve: the reference beside the learner code');
      // "Use the reference" asks first, naming what replaces what.
      await page.getByRole('button', { name: 'Use the reference' }).click();
      const dialog = page.getByRole('dialog', { name: 'Replace your code in jsonrpc.ts with the reference solution?' });
      await dialog.waitFor();
      await expectAccessible(page, 'the "Use the reference" dialog', { include: '[role="dialog"], dialog' });
      await page.keyboard.press('Escape'); // cancelling changes nothing
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.getByTestId('diff-editor').count()).toBe(1);
      await page.getByRole('button', { name: 'Use the reference' }).click();
      await dialog.getByRole('button', { name: 'Replace my code' }).click();
      await editorReady(page);
      await waitForEditorText(page, 'JSON-RPC 2.0: the message shapes');

      // Ctrl+Enter in the editor runs the tests.
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await expect.poll(typeScriptWorkerFetched, { timeout: limit(15_000) }).toBe(true);
      // Every status the run shows, in order: the examples' verdict comes out while the five
      // property tests are still checked, and only then the whole run's.
      await page.evaluate(() => {
        const status = document.querySelector('[data-testid="run-status"]') as HTMLElement;
        const seen: string[] = [];
        (window as unknown as { seenStatuses: string[] }).seenStatuses = seen;
        new MutationObserver(() => seen.push(`${status.dataset.status}|${status.dataset.examples ?? ''}|${status.textContent}`)).observe(status, { attributes: true, childList: true, subtree: true, characterData: true });
      });
      await runAndWait(page, () => page.keyboard.press('Control+Enter'), 'pass');
      const seen = await page.evaluate(() => (window as unknown as { seenStatuses: string[] }).seenStatuses);
      const examplesShown = seen.indexOf(`running|pass|All ${count - 5} example tests passed; now checking 5 property tests (random inputs, compared with the reference)…`);
      expect(examplesShown, seen.join('\n')).toBeGreaterThanOrEqual(0);
      expect(seen.findIndex((line) => line.startsWith('pass|'))).toBeGreaterThan(examplesShown);
      expect(await tests.count()).toBe(count);
      expect(await tests.evaluateAll((items) => items.every((item) => (item as HTMLElement).dataset.status === 'pass'))).toBe(true);
      await page.getByTestId('completed-badge').waitFor();
      expect(await page.getByTestId('exercise-progress').textContent()).toBe(`1 of ${EXERCISE_COUNT} complete`);
      // The list marks it passed with the reference (apart from a pass the learner wrote), and that hints were used.
      expect(await page.getByRole('button', { name: /The JSON-RPC 2.0 codec \(completed with the reference solution, hints used\)/ }).count()).toBe(1);

      // The code and the mark survive a reload.
      await page.reload();
      await editorReady(page);
      expect(await editorText(page)).toContain('JSON-RPC 2.0: the message shapes');
      await page.getByTestId('completed-badge').waitFor();

      // Reset asks (a real dialog), restores the starter and keeps the mark.
      await page.getByRole('button', { name: 'Reset' }).click();
      const resetDialog = page.getByRole('dialog', { name: 'Reset to the starter?' });
      await resetDialog.waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await resetDialog.getByRole('button', { name: 'Reset my code' }).click();
      await waitForEditorText(page, 'Exercise 1: the JSON-RPC 2.0 codec');
      expect(await page.getByTestId('completed-badge').isVisible()).toBe(true);
      await page.reload();
      await editorReady(page);
      expect(await editorText(page)).toContain('Exercise 1: the JSON-RPC 2.0 codec');

      // A lesson's link to another exercise opens it in the study view (and leaves the address alone).
      await page.getByRole('button', { name: /The client lifecycle/ }).click();
      await page.getByRole('heading', { name: 'The handshake' }).waitFor();
      await page.getByRole('link', { name: 'exercise 7' }).click();
      await page.getByRole('heading', { name: 'The stateless era', level: 2 }).waitFor();
      expect(await page.getByRole('button', { name: /The stateless era/ }).getAttribute('aria-current')).toBe('true');
      expect(await page.evaluate(() => window.location.hash)).toBe('');
      await waitForEditorText(page, 'Exercise 7: the stateless era');
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });

  // One page, three kinds of broken input in a row, as one learner would meet them.
  it('stops an infinite loop with the 2 s watchdog and the page keeps responding; a syntax error names its line and survives a language switch; unreadable saved progress is a dismissible notice', { timeout: limit(120_000) }, async () => {
    const { page, close, consoleLines } = await open();
    try {
      await typeCode(page, 'while (true) {}');
      const summary = page.getByTestId('run-status');
      await runAndWait(
        page,
        async () => {
          await runButton(page).click();
          // While it runs, the status says so (an aria-live region).
          expect(await summary.getAttribute('aria-live')).toBe('polite');
          expect(await summary.textContent()).toMatch(/^Running the tests…/);
        },
        'error',
      );
      // The 2 s watchdog stopped it, not the 60 s limit on a whole run: the message says which
      // (runAndWait gives up after 10 s). When it fires is checked on a fake clock in
      // src/sandbox/spec-runner.test.ts; a real page's clock proves nothing either way.
      expect(await summary.textContent()).toContain('Stopped: your code ran for more than 2 s without pausing.');
      expect(await page.getByTestId('run-error').textContent()).toContain('while (true)');

      // The page answers at once: another exercise opens, and a fresh runner takes the next run.
      await page.getByRole('button', { name: /Frames on stdin and stdout/ }).click();
      await page.getByRole('heading', { name: 'Frames on stdin and stdout', level: 2 }).waitFor({ timeout: limit(1000) });
      await page.getByRole('button', { name: /The JSON-RPC 2.0 codec/ }).click();
      await typeCode(page, 'export const fixed = 1;');
      await runAndWait(page, () => runButton(page).click(), 'fail');

      // A syntax error: its line in the status, a button to it, the line marked in the editor.
      await typeCode(page, 'export const a = 1;\nexport const b = ;');
      await runAndWait(page, () => runButton(page).click(), 'error');
      expect(await page.getByTestId('run-status').textContent()).toBe('Syntax error in jsonrpc.ts on line 2.');
      expect(await page.getByRole('button', { name: 'Go to line 2' }).count()).toBe(1);
      await page.waitForFunction(() => document.querySelector('[data-testid="code-editor"]')?.getAttribute('data-run-marker-lines') === '2');
      await page.locator('.squiggly-error').first().waitFor({ timeout: limit(10_000) });

      // In Chinese: the status, the editor's name, the code and a hint, kept across a reload.
      await page.getByRole('button', { name: '中文' }).click();
      await page.getByRole('heading', { name: '三种消息形态' }).waitFor();
      expect(await page.getByTestId('run-status').textContent()).toBe('jsonrpc.ts 第 2 行有语法错误。');
      expect(await page.getByRole('textbox', { name: 'jsonrpc.ts 的代码编辑器' }).count()).toBe(1);
      expect(await editorText(page)).toContain('export const b = ;');
      await page.getByRole('button', { name: '显示一条提示' }).click();
      expect(await page.getByTestId('hint-count').textContent()).toMatch(/^已显示 1 \//);
      await expectAccessible(page, 'the study view in Chinese after a run, a hint open');
      await page.reload();
      await editorReady(page);
      expect(await editorText(page)).toContain('export const b = ;');
      expect(await page.getByTestId('hint-count').textContent()).toMatch(/^已显示 1 \//);

      // Saved progress that cannot be read (set before the page's scripts on the next load): a
      // notice, not a crash, and the exercise still runs.
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Three message shapes' }).waitFor();
      await page.addInitScript(() => {
        if (window === window.top) localStorage.setItem('mcp-playground:progress', '{ not json');
      });
      await page.reload();
      await editorReady(page);
      const notice = page.getByRole('alert').filter({ hasText: 'Saved progress could not be read' });
      await notice.waitFor();
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'hidden' });
      await runAndWait(page, () => runButton(page).click(), 'fail');
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
