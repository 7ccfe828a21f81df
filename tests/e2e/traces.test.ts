// Traces in real Chromium against the production build: the live session saved as a trace (a real
// download, on the in-browser worker and on the local bridge) opens in the trace view with the same
// rows, bytes and frames; bad trace files are refused with their line named and nothing else
// changes; a #trace= link and a dropped file open; Find works by keyboard in English and in
// Chinese; axe finds nothing serious on the trace view.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { traceHash } from '../../src/app/trace/trace-link.ts';
import { expectAccessible } from './axe.ts';
import { openOnHost, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';
import { readClipboard } from './clipboard.ts';

const app = useAppAndBrowser();
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'traces-e2e-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

const liveRows = (page: Page) => page.getByRole('list', { name: 'Message log', exact: true }).getByRole('listitem');
const traceList = (page: Page, name = 'Message log (trace)') => page.getByRole('list', { name, exact: true });

async function rowTexts(rows: ReturnType<Page['locator']>): Promise<string[]> {
  return (await rows.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Opens a file through the trace view's file input (what the "Open a trace file…" button clicks). */
async function openTraceFile(page: Page, path: string): Promise<void> {
  await page.getByTestId('trace-file-input').setInputFiles(path);
}

const HEADER = { format: 'mcp-playground-trace', version: 1, mode: 'stdio', framing: 'ndjson', framingSource: 'given', started: '2026-12-01T16:00:00.000Z', recorder: 'e2e', program: ['node', 'server.js'] };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const jsonLines = (...values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

describe('traces in the page', () => {
  it('saves the live session as a trace and opens it with the same log, bytes and frames; refuses bad files by line', async () => {
    const { page, close, consoleLines } = await openOnHost(app, 'worker', '');
    try {
      await page.getByRole('button', { name: 'Run handshake' }).click();
      await page.getByText(/^Handshake complete\./).waitFor({ timeout: limit(15_000) });
      await liveRows(page).filter({ hasText: 'response to tools/call #2' }).waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-trace').click()]);
      expect(download.suggestedFilename()).toMatch(/^mcp-trace-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.jsonl$/);
      const saved = join(folder, download.suggestedFilename());
      await download.saveAs(saved);
      const text = await readFile(saved, 'utf8');
      expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ format: 'mcp-playground-trace', version: 1, mode: 'stdio' });

      const live = await rowTexts(liveRows(page));
      await page.goto(`${app.url}?host=worker#trace`);
      // A fresh page: the live log is empty again, the trace brings the bytes back.
      await page.getByTestId('trace-none').waitFor();
      await openTraceFile(page, saved);
      // Rows show while the file is read; the summary says it was read to the end.
      await page.getByTestId('trace-summary').waitFor({ timeout: limit(15_000) });
      expect(await rowTexts(traceList(page).getByRole('listitem'))).toEqual(live);
      expect(await page.getByTestId('trace-events').textContent()).toBe(String(text.trim().split('\n').length - 1));

      // The response's bytes in the inspector, and the chunk boundaries: the same frame the live host showed.
      const row = traceList(page).getByRole('listitem').filter({ hasText: 'response to tools/call #2' });
      await row.locator('.log-entry__row').click();
      await row.getByRole('button', { name: 'Inspect bytes: frame 1' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('你好, MCP');
      await expectAccessible(page, 'trace view: byte inspector open on a frame of an opened trace');
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The read-only sequence diagram draws the recorded conversation.
      expect(await page.getByTestId('trace-diagram-range').textContent()).toMatch(/^Frames 1–\d+ of \d+$/);
      expect(await page.getByTestId('diagram-arrow').count()).toBeGreaterThan(5);
      await expectAccessible(page, 'trace view with an opened trace');

      // Bad files: refused with their line named; the trace shown before stays exactly as it was.
      const before = await rowTexts(traceList(page).getByRole('listitem'));
      const lines = text.split('\n');
      const bad: [string, string, RegExp][] = [
        ['malformed.jsonl', [lines[0], lines[1], `${lines[2]!.slice(0, -1)},`, ...lines.slice(3)].join('\n'), /line 3: not JSON/],
        ['truncated.jsonl', text.slice(0, text.length - 10), new RegExp(`line ${lines.length - 1}: the last line is cut off`)],
        ['v2.jsonl', jsonLines({ ...HEADER, version: 2 }), /line 1: trace format version 2; this reader reads version 1/],
      ];
      for (const [name, content, message] of bad) {
        const path = join(folder, name);
        await writeFile(path, content);
        await openTraceFile(page, path);
        const error = page.getByTestId('trace-error');
        await error.filter({ hasText: name }).waitFor({ timeout: limit(15_000) });
        expect(await error.textContent()).toMatch(message);
        expect(await rowTexts(traceList(page).getByRole('listitem'))).toEqual(before);
        expect(await page.getByTestId('trace-summary').textContent()).toContain(download.suggestedFilename());
      }

      // "Copy a link to this trace": the whole trace in a #trace= link, which opens it again.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
      await page.getByTestId('trace-copy-link').click();
      await page.getByText('Link copied: it holds the whole trace, nothing is uploaded.').waitFor();
      const link = await readClipboard(page.context(), new URL(app.url).origin);
      expect(link).toMatch(/#trace=1\.[0-9a-f]{8}\./);
      await page.goto(link);
      await page.getByTestId('trace-summary').filter({ hasText: 'link' }).waitFor({ timeout: limit(15_000) });
      expect(await rowTexts(traceList(page).getByRole('listitem'))).toEqual(live);
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('saves a session on the local bridge (real processes, real pipes) that opens with the same rows', async () => {
    const { page, close } = await openOnHost(app, 'bridge', '');
    try {
      await page.getByRole('button', { name: 'Run handshake' }).click();
      await page.getByText(/^Handshake complete\./).waitFor({ timeout: limit(15_000) });
      await liveRows(page).filter({ hasText: 'response to tools/call #2' }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-trace').click()]);
      const saved = join(folder, `bridge-${download.suggestedFilename()}`);
      await download.saveAs(saved);
      expect(JSON.parse((await readFile(saved, 'utf8')).split('\n')[0]!)).toMatchObject({ recorder: 'mcp-playground page (bridge host)' });
      const live = await rowTexts(liveRows(page));
      await page.goto(`${app.url}?host=bridge#trace`);
      await page.getByTestId('trace-none').waitFor();
      await openTraceFile(page, saved);
      await page.getByTestId('trace-summary').waitFor({ timeout: limit(15_000) });
      expect(await rowTexts(traceList(page).getByRole('listitem'))).toEqual(live);
    } finally {
      await close();
    }
  });

  it('opens a #trace= link, and Find works by keyboard in English and in Chinese', async () => {
    const trace = jsonLines(
      HEADER,
      { tap: 1, ev: 'spawn', t: 0, pid: 7, argv: ['node', 'server.js'] },
      { tap: 1, ev: 'c2s', t: 1, b64: b64('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n') },
      { tap: 1, ev: 's2c', t: 2, b64: b64('{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"third-party"}}}\n') },
      { tap: 1, ev: 'c2s', t: 3, b64: b64('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"weather"}}\n') },
      { tap: 1, ev: 'stderr', t: 4, b64: b64('debug: calling the weather service\n') },
      { tap: 1, ev: 's2c', t: 5, b64: b64('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"sunny"}]}}\n') },
    );
    const hash = await traceHash(trace);
    const { page, close } = await openOnHost(app, 'worker', hash!);
    try {
      const list = traceList(page);
      await list.getByRole('listitem').first().waitFor({ timeout: limit(15_000) });
      expect(await list.getByRole('listitem').count()).toBe(6);

      // "/" from a row jumps to the search; typing filters; Enter goes to the first match.
      await list.locator('.log-entry__row').first().focus();
      await page.keyboard.press('/');
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('find-search');
      await page.keyboard.type('sunny');
      await expect.poll(() => page.getByTestId('find-count').textContent()).toBe('Showing 1 of 6');
      await page.keyboard.press('Escape');
      await expect.poll(() => list.getByRole('listitem').count()).toBe(6);
      await page.keyboard.type('tools/call');
      await expect.poll(() => page.getByTestId('find-count').textContent()).toBe('Showing 2 of 6');
      await page.keyboard.press('Enter');
      // P pins the focused row; G jumps to the response of its id.
      await page.keyboard.press('p');
      await expect.poll(() => page.getByRole('list', { name: 'Pinned' }).getByRole('listitem').count()).toBe(1);
      await page.keyboard.press('g');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('response to tools/call #1');

      // A kind filter, by keyboard: Tab to the toggle, Space presses it.
      await page.getByTestId('find-search').focus();
      await page.keyboard.press('Escape');
      const stderrToggle = page.getByRole('group', { name: 'Kind' }).getByRole('button', { name: 'stderr' });
      await stderrToggle.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => stderrToggle.getAttribute('aria-pressed')).toBe('true');
      expect(await rowTexts(list.getByRole('listitem'))).toEqual([expect.stringContaining('debug: calling the weather service')]);
      await page.keyboard.press('Space');

      // The same in Chinese.
      await page.getByRole('button', { name: '中文' }).click();
      const zhList = traceList(page, '消息日志（轨迹）');
      await zhList.waitFor({ timeout: limit(15_000) });
      await zhList.locator('.log-entry__row').first().focus();
      await page.keyboard.press('/');
      await page.keyboard.type('initialize');
      await expect.poll(() => page.getByTestId('find-count').textContent()).toBe('显示 2 / 6 条');
      const responseToggle = page.getByRole('group', { name: '类型' }).getByRole('button', { name: '响应' });
      await responseToggle.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => page.getByTestId('find-count').textContent()).toBe('显示 1 / 6 条');
      expect(await rowTexts(zhList.getByRole('listitem'))).toEqual([expect.stringContaining('initialize 的响应 #0')]);
      await expectAccessible(page, 'trace view in Chinese, filters on');

      // Dropping a file on the drop zone opens it in place of the link's trace (filters cleared first:
      // they stay across traces, like the live log's across server runs).
      await page.getByRole('button', { name: '清除筛选' }).click();
      const dropped = jsonLines(HEADER, { tap: 1, ev: 'c2s', t: 1, b64: b64('{"jsonrpc":"2.0","id":9,"method":"ping"}\n') });
      const dataTransfer = await page.evaluateHandle((text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'dropped.jsonl', { type: 'application/x-ndjson' }));
        return transfer;
      }, dropped);
      await page.getByTestId('trace-drop').dispatchEvent('drop', { dataTransfer });
      await page.getByTestId('trace-summary').filter({ hasText: 'dropped.jsonl' }).waitFor({ timeout: limit(15_000) });
      expect(await rowTexts(zhList.getByRole('listitem'))).toEqual([expect.stringContaining('ping #9')]);

      // A long trace shows its first rows while the rest is still being read (the log is busy, its
      // count says "so far"), then the summary; a search finds a message near its end.
      const messages = 6000;
      const big = [JSON.stringify(HEADER)];
      for (let i = 0; i < messages; i++) {
        const body = i % 2 === 0 ? { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: `message ${i} 你好 ${'x'.repeat(900)}` } } } : { jsonrpc: '2.0', id: i - 1, result: { content: [{ type: 'text', text: `reply ${i}` }] } };
        big.push(JSON.stringify({ tap: 1, ev: i % 2 === 0 ? 'c2s' : 's2c', t: i, b64: b64(`${JSON.stringify(body)}\n`) }));
      }
      const bigPath = join(folder, 'long.jsonl');
      await writeFile(bigPath, `${big.join('\n')}\n`);
      await page.evaluate(() => {
        const seen = { rows: 0, count: '', vanished: false };
        (window as unknown as { __whileReading: typeof seen }).__whileReading = seen;
        new MutationObserver(() => {
          // Once rows show, the log never blinks out (a part loading lazily must not hide the view).
          const log = document.querySelector<HTMLElement>('[data-testid="trace-log"]');
          if (seen.rows > 0 && (log === null || log.offsetHeight === 0)) seen.vanished = true;
          const busy = document.querySelector('[data-testid="trace-log"][aria-busy="true"]');
          if (busy === null) return;
          seen.rows = Math.max(seen.rows, busy.querySelectorAll('[role="listitem"], li').length);
          seen.count = busy.querySelector('[data-testid="trace-log-count"]')?.textContent ?? seen.count;
        }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      });
      await openTraceFile(page, bigPath);
      await page.getByTestId('trace-summary').filter({ hasText: 'long.jsonl' }).waitFor({ timeout: limit(60_000) });
      const whileReading = await page.evaluate(() => (window as unknown as { __whileReading: { rows: number; count: string; vanished: boolean } }).__whileReading);
      expect(whileReading.rows).toBeGreaterThan(0);
      expect(whileReading.vanished).toBe(false);
      expect(whileReading.count).toMatch(/^已读条目：\d+（仍在读取）$/);
      expect(await page.getByTestId('trace-log-count').textContent()).toBe(`条目：${messages}`);
      await page.getByTestId('find-search').fill(`message ${messages - 2} 你好`);
      await expect.poll(() => page.getByTestId('find-count').textContent(), { timeout: limit(15_000) }).toBe(`显示 1 / ${messages} 条`);
    } finally {
      await close();
    }
  });
});
