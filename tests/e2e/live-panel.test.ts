// The live panel in real Chromium against the production build, with a forced host: the handshake
// over the local bridge and over the in-browser worker, a fault, a crash, stop/start, and the
// language switch.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

async function open(query: string, locale?: string): Promise<TestPage> {
  const opened = await openPage(app.browser, { locale });
  await opened.page.goto(`${app.url}${query}`);
  return opened;
}

function logRows(page: Page) {
  return page.getByRole('list', { name: 'Message log' }).getByRole('listitem');
}

async function rowTexts(page: Page): Promise<string[]> {
  return (await logRows(page).allTextContents()).map((text) => text.replace(/\s+/g, ' '));
}

async function runHandshake(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run handshake' }).click();
  await page.getByText(/^Handshake (complete\.|failed)/).waitFor({ timeout: limit(15_000) });
}

async function currentClientState(page: Page): Promise<string | null> {
  return page.getByRole('list', { name: 'Client state' }).locator('[aria-current="step"]').textContent();
}

async function serverStatus(page: Page, pattern: RegExp): Promise<void> {
  await page.getByRole('status').filter({ hasText: pattern }).waitFor({ timeout: limit(15_000) });
}

async function expectFullHandshake(page: Page): Promise<void> {
  await runHandshake(page);
  const failure = await page.getByText(/^Handshake failed/).count();
  expect(failure, await page.getByTestId('handshake-step').textContent() ?? '').toBe(0);
  expect(await currentClientState(page)).toBe('ready');

  const rows = await rowTexts(page);
  const find = (pattern: RegExp) => rows.findIndex((row) => pattern.test(row));
  // Each message in order, each response paired with its request's id.
  const order = [
    find(/client → server.*initialize #0/),
    find(/server → client.*response to initialize #0/),
    find(/client → server.*notifications\/initialized/),
    find(/client → server.*tools\/list #1/),
    find(/server → client.*response to tools\/list #1/),
    find(/client → server.*tools\/call #2/),
    find(/server → client.*response to tools\/call #2/),
  ];
  expect(order.every((index) => index >= 0), rows.join('\n')).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);

  expect(await page.getByTestId('handshake-result').textContent()).toContain('你好, MCP');

  // The echo result, as parsed from the bytes on the wire, is one click away.
  // The row's own button (its details hold an "Inspect bytes" button too, once open).
  const callResponse = logRows(page).filter({ hasText: 'response to tools/call #2' }).getByRole('button').first();
  await callResponse.click();
  expect(await callResponse.getAttribute('aria-expanded')).toBe('true');
  const details = logRows(page).filter({ hasText: 'response to tools/call #2' }).locator('.log-entry__details');
  expect(await details.textContent()).toContain('你好, MCP');
}

describe('the live panel in Chromium (production build)', () => {
  it('runs the full handshake over the local bridge, in a cross-origin isolated page', async () => {
    const { page, close, consoleLines } = await open('?host=bridge');
    try {
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.getByText('Live host: Local bridge').waitFor({ timeout: limit(10_000) });
      await page.getByText(/^Chosen by \?host=bridge/).waitFor();
      await expectFullHandshake(page);
      await serverStatus(page, /Server running in Local bridge \(pid \d+\)/);
      // The echo server's own logging arrives on stderr, in its own lane.
      expect(await page.locator('.log-entry--stderr').count()).toBeGreaterThan(0);
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('runs the same handshake in the in-browser worker', async () => {
    const { page, close } = await open('?host=worker');
    try {
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.getByText('Live host: In-browser worker').waitFor({ timeout: limit(10_000) });
      await page.getByLabel('Framing').selectOption('ndjson');
      await expectFullHandshake(page);
      await serverStatus(page, /Server running in In-browser worker/);
      // The panel after a handshake, one frame open in the log (expectFullHandshake opened it).
      await expectAccessible(page, 'the live panel after a handshake, a frame open');
    } finally {
      await close();
    }
  });

  it('shows stdout pollution as an unreadable frame, and the page keeps working', async () => {
    const { page, close } = await open('?host=bridge');
    try {
      await page.getByText('Live host: Local bridge').waitFor({ timeout: limit(10_000) });
      await page.getByLabel('Framing').selectOption('ndjson');
      await page.getByRole('checkbox', { name: /^stdout-log/ }).check();
      await runHandshake(page);
      const errorRow = logRows(page).filter({ hasText: 'Unreadable frame' }).first();
      await errorRow.waitFor({ timeout: limit(10_000) });
      expect(await errorRow.textContent()).toContain('server → client');
      // The raw bytes show the culprit: the log line printed to stdout.
      await errorRow.getByRole('button').first().focus();
      await page.keyboard.press('Enter');
      expect(await errorRow.locator('.log-entry__details').textContent()).toContain('[echo-server]');

      // Switch the fault off (only possible once the server stopped) and the handshake works again.
      await page.getByRole('button', { name: 'Stop server' }).click();
      await serverStatus(page, /^Server stopped\.$/);
      await page.getByRole('checkbox', { name: /^stdout-log/ }).uncheck();
      await page.getByRole('button', { name: 'Clear log' }).click();
      await expectFullHandshake(page);
    } finally {
      await close();
    }
  });

  it('reports a server killed from outside, then stop and start again work', async () => {
    const { page, close } = await open('?host=bridge');
    try {
      await page.getByText('Live host: Local bridge').waitFor({ timeout: limit(10_000) });
      await page.getByRole('button', { name: 'Start server' }).click();
      await serverStatus(page, /Server running in Local bridge \(pid \d+\)/);
      // The live panel's own status line (the header also has one: the offline badge).
      const serverLine = page.locator('#live-panel').getByRole('status');
      const status = (await serverLine.textContent()) ?? '';
      const pid = Number(/pid (\d+)/.exec(status)?.[1]);
      expect(pid).toBeGreaterThan(0);

      process.kill(pid, 'SIGKILL');
      await serverStatus(page, /killed by signal SIGKILL/);
      expect(await serverLine.getAttribute('class')).toContain('is-error');
      expect((await rowTexts(page)).some((row) => row.includes('Process ended by signal SIGKILL'))).toBe(true);

      await page.getByRole('button', { name: 'Start server' }).click();
      await serverStatus(page, /Server running in Local bridge/);
      await page.getByRole('button', { name: 'Stop server' }).click();
      await serverStatus(page, /^Server stopped\.$/);
      await page.getByRole('button', { name: 'Start server' }).click();
      await serverStatus(page, /Server running in Local bridge/);
      await runHandshake(page);
      expect(await currentClientState(page)).toBe('ready');
    } finally {
      await close();
    }
  });

  it('switches to Chinese without losing the log, and remembers the choice', async () => {
    const { page, close } = await open('?host=worker');
    try {
      await page.getByText('Live host: In-browser worker').waitFor({ timeout: limit(10_000) });
      await runHandshake(page);
      const before = await logRows(page).count();
      expect(before).toBeGreaterThan(5);

      await page.getByRole('button', { name: '中文' }).click();
      await page.getByRole('heading', { name: '实时面板', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: '运行握手' }).count()).toBe(1);
      expect(await page.getByText('当前运行环境：浏览器内 Worker').count()).toBe(1);
      expect(await page.getByRole('button', { name: '中文' }).getAttribute('aria-pressed')).toBe('true');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      const rows = page.getByRole('list', { name: '消息日志' }).getByRole('listitem');
      expect(await rows.count()).toBe(before);
      expect(await rows.filter({ hasText: 'initialize 的响应 #0' }).count()).toBe(1);
      // Protocol names stay English in the Chinese UI.
      expect(await page.getByText('握手完成。').count()).toBe(1);

      await page.reload();
      await page.getByRole('heading', { name: '实时面板', exact: true }).waitFor();
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Live panel', exact: true }).waitFor();
    } finally {
      await close();
    }
  });

  it('follows the browser language on a first visit', async () => {
    const { page, close } = await open('?host=worker', 'zh-CN');
    try {
      await page.getByRole('heading', { name: '实时面板', exact: true }).waitFor({ timeout: limit(10_000) });
    } finally {
      await close();
    }
  });
});
