// Two languages in real Chromium against the production build:
// - the fake "keys" locale (?lng=keys) renders every UI string as its key; on each main view every
//   visible text node must then be a key or something that is never translated (protocol names,
//   code, numbers, the learner's data, lesson content, which has its own completeness test), so a
//   string a component hard-codes instead of translating fails here;
// - a first visit follows the browser's language (a zh-CN browser gets Chinese), a choice made in
//   the page wins over the browser on the next visit;
// - switching language mid-exercise keeps the code in the editor and the progress, which does not
//   depend on the language.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

async function open(query: string, locale?: string, beforeLoad?: (page: Page) => Promise<unknown>): Promise<TestPage> {
  const opened = await openPage(app.browser, { locale });
  await beforeLoad?.(opened.page);
  await opened.page.goto(`${app.url}${query}`);
  return opened;
}

async function editorReady(page: Page): Promise<void> {
  await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
}

async function editorText(page: Page): Promise<string> {
  return (await page.getByTestId('code-editor').locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}

/**
 * Visible text on the page that is neither a translation key nor allowed to stay as it is. Runs
 * in the page: walks every text node whose element is rendered, skipping regions whose text is
 * data, not UI (code, the editor, lesson content, the learner's bytes and JSON).
 */
async function untranslatedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Not UI text: code and data regions (checked by other tests), and the lesson content whose
    // two languages tests/i18n/completeness.test.ts compares.
    const SKIP = [
      'code', 'pre', 'kbd', 'samp', 'svg text',
      '.monaco-editor', '.monaco-diff-editor', '[data-testid="code-editor"]', '[data-testid="diff-editor"]',
      'article.lesson', '.hint-list', '[data-testid="hint"]',
      // Exercise titles come from exercises/*/meta.json (both languages: tests/i18n/completeness).
      '.exercise-nav__title',
      // Test names come from exercises/*/spec.ts, translated in test-names.zh-CN.json (checked by
      // tests/i18n/completeness.test.ts); in the keys locale they show the English original.
      '.test-result__name',
      '.hex-bytes', '.hex-view', '.json-tree', '.json-row', '.log-entry__raw', '.log-entry__body',
      // What the echo server itself prints on stderr: a program's output, shown as it came.
      '.stderr-text',
      // What a call returned (server name and version, tool names, the echoed text): the server's
      // data.
      '.pending-row__outcome',
      '[data-i18n-data]',
    ].join(',');
    // A key (workspace.run, faults.stdout-log), a number or size, punctuation and arrows, and the
    // names that stay English in every language.
    const KEY = /^[A-Za-z][\w-]*(\.[\w-]+)+$/;
    const UNITS = new Set(['B', 'KB', 'ms', 's']);
    const NAMES = new Set([
      'MCP', 'JSON-RPC', 'JSON', 'NDJSON', 'Content-Length', 'LSP', 'UTF-8', 'UTF-16', 'stdin', 'stdout', 'stderr',
      'initialize', 'notifications/initialized', 'notifications/cancelled', 'tools/list', 'tools/call', 'ping', 'echo',
      'WebContainer', 'English', '中文', 'id', 'result', 'error', 'method', 'params', 'EOF', 'pid', 'Ctrl', 'Enter',
    ]);
    // A token without letters is a number, a symbol or an arrow: nothing to translate.
    // Also: method names (tools/list), code identifiers (split-writes, delay_echo), hex bytes (7b).
    const okToken = (token: string) =>
      !/\p{L}/u.test(token) || /^[0-9a-f]{2}$/.test(token) || KEY.test(token) || UNITS.has(token) || NAMES.has(token) || /^[a-z]+(\/[a-z]+)+$/.test(token) || /^[a-z][a-z0-9]*([-_][a-z0-9]+)+$/.test(token);
    const offenders = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (text === '') continue;
      const element = node.parentElement;
      if (!element || element.closest(SKIP)) continue;
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const tokens = text.split(/\s+/).map((token) => token.replace(/^[("'“‘[]+|[)"'”’\].,:;!?…]+$/g, ''));
      if (!tokens.every((token) => token === '' || okToken(token))) offenders.add(text.length > 80 ? `${text.slice(0, 80)}…` : text);
    }
    return [...offenders];
  });
}

describe('the fake keys locale', () => {
  it('shows keys everywhere on the study view, the protocol view and the live panel', { timeout: limit(90_000) }, async () => {
    const { page, close, consoleLines } = await open('?host=worker&lng=keys');
    try {
      await page.getByRole('button', { name: 'workspace.run', exact: true }).waitFor({ timeout: limit(20_000) });
      await editorReady(page);
      // Keys are never remembered: the language stored stays unset.
      expect(await page.evaluate(() => localStorage.getItem('mcp-playground.language'))).toBeNull();

      // Study view after a run, with a hint open (hint text is content, its frame is UI).
      await page.getByRole('button', { name: 'workspace.run', exact: true }).click();
      await page.waitForFunction(() => ['pass', 'fail', 'error'].includes(document.querySelector<HTMLElement>('[data-testid="run-status"]')?.dataset.status ?? ''));
      expect(await page.getByTestId('run-status').textContent()).toBe('results.fail');
      expect(await untranslatedText(page), 'study view').toEqual([]);

      // The live panel after a handshake (below the study view).
      await page.getByText('badge.live', { exact: true }).waitFor({ timeout: limit(15_000) });
      await page.getByRole('button', { name: 'handshake.run', exact: true }).click();
      await page.getByText('handshake.steps.done', { exact: true }).waitFor({ timeout: limit(15_000) });
      expect(await untranslatedText(page), 'study view + live panel').toEqual([]);

      // The protocol view after the whole handshake, then the byte inspector.
      await page.goto(`${app.url}?host=worker&lng=keys#protocol`);
      await page.getByText('badge.live', { exact: true }).waitFor({ timeout: limit(15_000) });
      await page.getByRole('button', { name: /^stepper\.runToEnd/ }).click();
      await page.waitForFunction(() => document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') === 'done', undefined, { timeout: limit(20_000) });
      expect(await untranslatedText(page), 'protocol view').toEqual([]);
      // The last frame the server sent (the exit arrow after it has no bytes to inspect).
      await page.locator('[data-testid="diagram-arrow"][role="button"]').last().click();
      await page.getByTestId('byte-inspector').waitFor();
      expect(await untranslatedText(page), 'byte inspector').toEqual([]);
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('choosing the language', () => {
  it('a first visit follows a Chinese browser; a choice made in the page wins on the next visit', { timeout: limit(60_000) }, async () => {
    const { page, close } = await open('?host=worker', 'zh-CN');
    try {
      await page.getByRole('button', { name: '运行测试', exact: true }).waitFor({ timeout: limit(20_000) });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      expect(await page.getByRole('heading', { name: '三种消息形态' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: '中文' }).getAttribute('aria-pressed')).toBe('true');

      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('button', { name: 'Run tests', exact: true }).waitFor();
      await page.reload();
      // The browser still says zh-CN; the remembered choice wins.
      await page.getByRole('button', { name: 'Run tests', exact: true }).waitFor({ timeout: limit(20_000) });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    } finally {
      await close();
    }
  });

  it('a page that opens in Chinese shows the starter with Chinese comments at once (loaded beside the text, not in the first paint)', { timeout: limit(60_000) }, async () => {
    const { page, close } = await open('?host=worker', 'zh-CN');
    try {
      await editorReady(page);
      // On a loaded machine the editor's first lines may still be laying out when it reports
      // ready: wait on the condition (the Chinese starter), never on a time.
      await page.waitForFunction(() => document.querySelector('[data-testid="code-editor"] .view-lines')?.textContent?.replace(/\u00a0/g, ' ').includes('练习 1：JSON-RPC 2.0') === true, undefined, { timeout: limit(10_000) });
      expect(await editorText(page)).not.toContain('Exercise 1: the JSON-RPC 2.0 codec');
    } finally {
      await close();
    }
  });

  it('switching mid-exercise keeps the typed code and the progress, which does not depend on the language', { timeout: limit(60_000) }, async () => {
    const { page, close } = await open('?host=worker');
    try {
      await editorReady(page);
      const progress = page.getByTestId('exercise-progress');
      const progressBefore = (await progress.textContent()) ?? '';
      expect(progressBefore).toMatch(/^0 of \d+ complete$/);
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\n// 我的笔记: keep me\n');
      await page.waitForFunction(() => document.querySelector('[data-testid="code-editor"] .view-lines')?.textContent?.replace(/\u00a0/g, ' ').includes('keep me') === true);

      await page.getByRole('button', { name: '中文' }).click();
      await page.getByRole('button', { name: '运行测试', exact: true }).waitFor();
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+End');
      await page.waitForFunction(() => document.querySelector('[data-testid="code-editor"] .view-lines')?.textContent?.replace(/\u00a0/g, ' ').includes('keep me') === true);
      expect(await editorText(page)).toContain('// 我的笔记: keep me');
      const total = /of (\d+)/.exec(progressBefore)?.[1];
      expect(await progress.textContent()).toContain(total);
      expect(await progress.textContent()).toContain('0');

      // Back to English after a reload: the code was saved in Chinese and comes back in English.
      await page.getByRole('button', { name: 'English' }).click();
      await page.reload();
      await editorReady(page);
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+End');
      await page.waitForFunction(() => document.querySelector('[data-testid="code-editor"] .view-lines')?.textContent?.replace(/\u00a0/g, ' ').includes('keep me') === true);
      expect(await progress.textContent()).toBe(progressBefore);
    } finally {
      await close();
    }
  });
});

describe('text and lessons load lazily', () => {
  it('fetches each view’s text and each lesson when first needed, and never shows a key meanwhile', { timeout: limit(60_000) }, async () => {
    const chunks: string[] = [];
    const { page, close } = await open('?host=worker', 'zh-CN', (page) => {
      page.on('request', (request) => {
        const file = /\/assets\/([^/?#]+)-[\w-]{8}\.js/.exec(request.url())?.[1];
        if (file) chunks.push(file);
      });
      // From the first byte of the page: every text node that looks like a translation key.
      return page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { keysSeen: string[] }).keysSeen = seen;
        const KEY = /^[a-z][A-Za-z]*(\.[\w-]+)+$/;
        const check = (node: Node) => {
          const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
          for (let text = node.nodeType === Node.TEXT_NODE ? node : walker.nextNode(); text; text = walker.nextNode()) {
            const value = text.textContent?.trim() ?? '';
            if (KEY.test(value) && !/\.(ts|js|json|md)$/.test(value) && !text.parentElement?.closest('code, pre, .monaco-editor')) seen.push(value);
          }
        };
        new MutationObserver((records) => records.forEach((record) => (record.type === 'characterData' ? check(record.target) : record.addedNodes.forEach(check)))).observe(document, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
    });
    const keysSeen = () => page.evaluate(() => (window as unknown as { keysSeen: string[] }).keysSeen);
    try {
      await page.getByRole('button', { name: '运行测试', exact: true }).waitFor({ timeout: limit(20_000) });
      await page.locator('article.lesson[lang="zh-CN"]').waitFor();
      // The study view's text and its open lesson, not the other views' text nor other lessons.
      expect(chunks).toEqual(expect.arrayContaining(['common', 'exercise', 'live', 'content.zh-CN', 'hints.zh-CN', 'test-names.zh-CN']));
      expect(chunks).not.toContain('protocol');
      expect(chunks).not.toContain('chapter-loop');
      expect(chunks.filter((chunk) => chunk === 'content.zh-CN')).toHaveLength(1);

      // Another exercise: its lesson loads when opened.
      await page.getByTestId('exercise-02-frames').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="exercise-02-frames"]')?.getAttribute('aria-current') === 'true');
      await page.locator('article.lesson[lang="zh-CN"]').waitFor();
      expect(chunks.filter((chunk) => chunk === 'content.zh-CN')).toHaveLength(2);

      // The byte inspector from the live panel's log: its text (the protocol view's) loads when it
      // first opens, and focus still lands on its close button.
      await page.getByText(/^当前运行环境：/).waitFor({ timeout: limit(15_000) });
      await page.getByRole('button', { name: '运行握手', exact: true }).click();
      await page.getByText('握手完成。', { exact: true }).waitFor({ timeout: limit(15_000) });
      expect(chunks).not.toContain('protocol');
      await page.locator('.log-entry--c2s button.log-entry__row').first().click();
      await page.getByTestId('log-inspect').first().click();
      await page.getByTestId('byte-inspector').waitFor();
      expect(chunks).toContain('protocol');
      await page.waitForFunction(() => document.activeElement?.closest('dialog') !== null && document.activeElement?.textContent === '关闭');
      await page.keyboard.press('Escape');
      await page.getByTestId('byte-inspector').waitFor({ state: 'detached' });

      // Another view: its text loads when it is first shown.
      await page.getByRole('link', { name: '协议', exact: true }).click();
      await page.getByTestId('stepper-status').waitFor({ timeout: limit(20_000) });
      expect(chunks).toContain('protocol');

      // Another language: the text of every view shown so far, and the open lesson, in English.
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('link', { name: 'Exercise', exact: true }).click();
      await page.locator('article.lesson[lang="en"]').waitFor({ timeout: limit(20_000) });
      expect(chunks).toContain('content.en');
      expect(await keysSeen()).toEqual([]);
    } finally {
      await close();
    }
  });
});
