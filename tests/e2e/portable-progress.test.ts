// Portable progress in real Chromium against the production build: code typed in one browser
// profile is exported (a real download), imported into a fresh profile through the file picker and
// shows up in the editor with its completed mark; a corrupt file is refused with the field named and
// nothing changed; a share link opens a scratch copy over a receiver's own code, runs its tests, and
// "Back to my code" finds the receiver's code intact; a damaged link says so and changes nothing.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { limit } from './limits.ts';

/** The exercises the page lists, as many as exercises/ holds. */
const EXERCISE_COUNT = readCatalogueFromDisk().exercises.length;

const PROGRESS_KEY = 'mcp-playground:progress';

const app = useAppAndBrowser();
/** Where downloads are kept: playwright deletes its own copy when the context closes. */
let downloads: string;

beforeAll(async () => {
  downloads = await mkdtemp(join(tmpdir(), 'portable-progress-'));
});

afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

/** A fresh profile (its own localStorage), optionally with saved progress, on the worker host. */
async function open(options: { progress?: unknown; hash?: string } = {}): Promise<TestPage> {
  const opened = await openPage(app.browser);
  if (options.progress !== undefined) {
    // Only on the first load: a reload must see what the page itself saved.
    await opened.page.addInitScript(
      ([key, value]) => {
        // Not in the learner-code sandbox frame: an opaque origin has no localStorage.
        if (window !== window.top) return;
        if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
      },
      [PROGRESS_KEY, JSON.stringify(options.progress)] as const,
    );
  }
  await opened.page.goto(`${app.url}?host=worker${options.hash ?? ''}`);
  await editorReady(opened.page);
  return opened;
}

async function editorReady(page: Page): Promise<void> {
  await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
}

async function waitForEditorText(page: Page, text: string): Promise<void> {
  await page.waitForFunction((expected) => {
    const lines = document.querySelector('[data-testid="code-editor"] .view-lines');
    return lines?.textContent?.replace(/\u00a0/g, ' ').includes(expected) === true;
  }, text);
}

async function editorText(page: Page): Promise<string> {
  return (await page.getByTestId('code-editor').locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByTestId('code-editor').locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(code);
}

const storedProgress = (page: Page) => page.evaluate((key) => localStorage.getItem(key), PROGRESS_KEY);

/** Export and import sit behind the exercise list's disclosure, closed by default. */
async function showProgressPanel(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Titles and progress' });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
}

/** Chooses a file through the page's own Import button, as a learner does. */
async function importFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await showProgressPanel(page);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import progress…' }).click()]);
  await chooser.setFiles(file);
}

describe('portable progress in Chromium (production build)', () => {
  it('exports to a file and imports it into a fresh profile; a corrupt file is refused and changes nothing', { timeout: limit(60_000) }, async () => {
    const code = '// written on machine A, 你好 🌏\nexport const answer = 42;\n';
    const source = await open({ progress: { version: 1, exercises: { '02-frames': { completed: true, completedAt: '2026-11-29T10:00:00.000Z', hintsRevealed: 1 } } } });
    let exportedPath: string;
    let exportedText: string;
    try {
      await typeCode(source.page, code);
      await waitForEditorText(source.page, 'export const answer = 42;');
      await showProgressPanel(source.page);
      const clickedAt = Date.now();
      const [download] = await Promise.all([source.page.waitForEvent('download'), source.page.getByRole('button', { name: 'Export progress' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^mcp-playground-progress-\d{4}-\d{2}-\d{2}\.json$/);
      exportedPath = join(downloads, download.suggestedFilename());
      await download.saveAs(exportedPath);
      exportedText = await readFile(exportedPath, 'utf8');
      const file = JSON.parse(exportedText);
      expect(file).toMatchObject({ format: 'mcp-playground-progress', formatVersion: 1, appVersion: '0.1.0', progress: { version: 1 } });
      // Stamped by this export: between the click and the file on disk (order, not a time limit).
      const exportedAt = Date.parse(file.exportedAt);
      expect(exportedAt).toBeGreaterThanOrEqual(clickedAt);
      expect(exportedAt).toBeLessThanOrEqual(Date.now());
      // Exported before the autosave pause ended: what the learner sees is what is exported.
      expect(file.progress.exercises['01-jsonrpc'].code).toContain('export const answer = 42;');
      expect(file.progress.exercises['01-jsonrpc'].code).toContain('你好 🌏');
      expect(file.progress.exercises['02-frames']).toEqual({ completed: true, completedAt: '2026-11-29T10:00:00.000Z', hintsRevealed: 1 });
      expect(await source.page.getByTestId('transfer-status').textContent()).toBe(`Saved ${download.suggestedFilename()} to your downloads.`);
    } finally {
      await source.close();
    }

    const target = await open();
    try {
      expect(await target.page.getByTestId('exercise-progress').textContent()).toBe(`0 of ${EXERCISE_COUNT} complete`);
      const starter = await editorText(target.page);

      // A corrupt file: refused, the field named, nothing changed (editor, marks, storage).
      const before = await storedProgress(target.page);
      const corrupt = exportedText.replace('"hintsRevealed": 1', '"hintsRevealed": "lots"');
      expect(corrupt).not.toBe(exportedText);
      await importFile(target.page, { name: 'progress.json', mimeType: 'application/json', buffer: Buffer.from(corrupt) });
      const error = target.page.getByTestId('import-error');
      await error.waitFor();
      expect(await error.textContent()).toContain('“progress.json” is damaged: the field progress.exercises["02-frames"].hintsRevealed does not hold a valid value. Nothing was changed.');
      expect(await target.page.getByTestId('import-dialog').count()).toBe(0);
      await importFile(target.page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some notes') });
      await target.page.getByText('“notes.txt” is not a progress file: it is not valid JSON').waitFor();
      expect(await storedProgress(target.page)).toBe(before);
      expect(await editorText(target.page)).toBe(starter);
      expect(await target.page.getByTestId('exercise-progress').textContent()).toBe(`0 of ${EXERCISE_COUNT} complete`);

      // The real file: the dialog says what changes, then Replace all restores everything.
      await importFile(target.page, exportedPath);
      const dialog = target.page.getByRole('dialog', { name: /Import progress from “mcp-playground-progress-/ });
      await dialog.waitFor();
      const changes = dialog.getByTestId('import-changes');
      expect(await changes.locator('[data-exercise="01-jsonrpc"]').innerText()).toContain('adds the file’s code (you still have the starter)');
      expect(await changes.locator('[data-exercise="02-frames"]').innerText()).toContain('adds the completed mark');
      // Keyboard: focus starts on Cancel; Tab reaches Replace all.
      expect(await target.page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await dialog.getByRole('button', { name: 'Replace all' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await waitForEditorText(target.page, 'export const answer = 42;');
      expect(await editorText(target.page)).toContain('你好 🌏');
      expect(await target.page.getByTestId('exercise-progress').textContent()).toBe(`1 of ${EXERCISE_COUNT} complete`);
      expect(await target.page.getByRole('button', { name: /\(completed, hints used\)/ }).count()).toBe(1);
      expect(await target.page.getByTestId('import-done').textContent()).toContain('Progress imported (replaced): 2 exercise(s) changed.');

      // Saved in the new profile at once (a reload would read exactly this).
      const saved = JSON.parse((await storedProgress(target.page)) ?? '{}');
      expect(saved.exercises['01-jsonrpc'].code).toContain('export const answer = 42;');
      expect(saved.exercises['02-frames']).toEqual({ completed: true, completedAt: '2026-11-29T10:00:00.000Z', hintsRevealed: 1 });
      expect(target.consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('opens a share link in a scratch copy that never touches the receiver’s own code', { timeout: limit(60_000) }, async () => {
    const shared = '// shared by a friend\nexport const shared = true;\n';
    const sender = await open();
    let link: string;
    try {
      await typeCode(sender.page, shared);
      await waitForEditorText(sender.page, 'export const shared = true;');
      await sender.page.getByRole('button', { name: 'Share code' }).click();
      const box = sender.page.getByRole('textbox', { name: 'Share link' });
      await box.waitFor();
      link = await box.inputValue();
      expect(link).toMatch(/^http:\/\/[^#?]+\/#share=1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
      expect(link.length).toBeLessThan(500);
    } finally {
      await sender.close();
    }
    const hash = link.slice(link.indexOf('#'));

    const own = '// the receiver’s own work\n';
    const receiver = await open({ progress: { version: 1, exercises: { '01-jsonrpc': { code: own } } }, hash });
    const { page } = receiver;
    try {
      const banner = page.getByTestId('scratch-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('Shared code — a scratch copy; your own work is untouched.');
      await waitForEditorText(page, 'export const shared = true;');

      // Edits and a test run in the scratch copy; the saved code stays the receiver's.
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// tried something\n');
      await waitForEditorText(page, '// tried something');
      const status = page.getByTestId('run-status');
      const seqBefore = Number(await status.getAttribute('data-seq'));
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.waitForFunction((previous) => {
        const element = document.querySelector('[data-testid="run-status"]');
        return element instanceof HTMLElement && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
      }, seqBefore);
      expect(await page.getByTestId('test-result').count()).toBeGreaterThan(0);
      // A page-hide flushes any autosave still pending at once (no waiting out the pause): after
      // it, storage still holds the receiver's code.
      await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
      expect(JSON.parse((await storedProgress(page)) ?? '{}').exercises['01-jsonrpc'].code).toBe(own);

      await page.getByRole('button', { name: 'Back to my code' }).click();
      await banner.waitFor({ state: 'hidden' });
      await waitForEditorText(page, 'the receiver’s own work');
      expect(await editorText(page)).not.toContain('export const shared = true;');
      expect(JSON.parse((await storedProgress(page)) ?? '{}').exercises['01-jsonrpc'].code).toBe(own);
      expect(new URL(page.url()).hash).toBe('');

      // A damaged link pasted into the open tab (only the hash changes): said so, own code stays.
      await page.evaluate((damaged) => {
        window.location.hash = damaged;
      }, hash.slice(0, -12));
      const problem = page.getByTestId('share-link-problem');
      await problem.waitFor();
      expect(await problem.textContent()).toContain('This share link is damaged (cut short or changed when it was copied), so it was not opened.');
      expect(await page.getByTestId('scratch-banner').count()).toBe(0);
      expect(await editorText(page)).toContain('the receiver’s own work');
      expect(new URL(page.url()).hash).toBe(''); // taken out, so a reload does not repeat it
      expect(receiver.consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
