// Issue 17 item 5, end to end: a real MCP server nobody here wrote (@modelcontextprotocol/server-
// memory, pinned in package.json) is recorded through the real tap at test time, and the trace file
// opens in real Chromium: the handshake and a tool call in the message log, and the tool call's
// bytes in the byte inspector, exactly the bytes the trace recorded.

import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace } from '../../src/runtime/trace/index.ts';
import { builtProgram } from '../integration/child-transport.ts';
import { recordThirdPartyServer, THIRD_PARTY_SESSION } from '../support/record-third-party.ts';
import { expectAccessible } from './axe.ts';
import { openOnHost, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'trace-third-party-'));
});
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

const traceRows = (page: Page) => page.getByRole('list', { name: 'Message log (trace)', exact: true }).getByRole('listitem');

describe('a trace of a third-party server in the page', () => {
  it('records server-memory through the tap, opens the trace, and inspects the handshake and a tool call byte for byte', async () => {
    const traceFile = join(folder, 'server-memory.jsonl');
    const recording = await recordThirdPartyServer(builtProgram('tap'), traceFile, join(folder, 'memory.jsonl'));
    expect(recording.exitCode).toBe(0);
    const trace = parseTrace(readFileSync(traceFile));
    if ('error' in trace) throw new Error(trace.error.message);
    // The tools/call request exactly as the tap recorded it: the bytes the inspector must show.
    const callBytes = recording.sent[3]!;

    const { page, close, consoleLines } = await openOnHost(app, 'worker', '');
    try {
      await page.goto(`${app.url}?host=worker#trace`);
      await page.getByTestId('trace-none').waitFor({ timeout: limit(15_000) });
      await page.getByTestId('trace-file-input').setInputFiles(traceFile);
      // Rows show while the file is read; the summary says it was read to the end.
      await page.getByTestId('trace-summary').filter({ hasText: 'server-memory.jsonl' }).waitFor({ timeout: limit(15_000) });

      // The handshake and the tool call, in order, each row with its recorded size.
      const texts = (await traceRows(page).allTextContents()).map((text) => text.replace(/\s+/g, ' '));
      const at = (pattern: RegExp) => texts.findIndex((text) => pattern.test(text));
      const order = [/initialize #0/, /response to initialize #0/, /notifications\/initialized/, /tools\/list #1/, /response to tools\/list #1/, /tools\/call #2/, /response to tools\/call #2/].map(at);
      expect(order.every((index) => index !== -1)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(texts[at(/(?<!response to )tools\/call #2/)]).toContain(`${callBytes.length} B`);

      // The real server's own name, in the initialize response's body.
      const initRow = traceRows(page).filter({ hasText: 'response to initialize #0' });
      await initRow.locator('.log-entry__row').click();
      expect(await initRow.textContent()).toContain('memory-server');

      // The tool call's frame in the byte inspector: its size is the recorded bytes' size, and the
      // non-ASCII text is there as the server received it.
      const callRow = traceRows(page).filter({ hasText: /tools\/call #2/ }).filter({ hasNotText: 'response to' });
      await callRow.locator('.log-entry__row').click();
      await callRow.getByRole('button', { name: 'Inspect bytes: frame 1', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const inspector = dialog.getByTestId('byte-inspector');
      const inspected = (await inspector.textContent()) ?? '';
      expect(inspected).toContain(`${callBytes.length} bytes, offset`);
      expect(inspected).toContain('create_entities');
      expect(inspected).toContain(THIRD_PARTY_SESSION.call.params.arguments.entities[0]!.observations[1]);
      // Byte for byte: every cell of the hex dump, in order, is the recorded request's byte.
      const hexCells = await inspector.getByTestId('hex-view').evaluate((view) =>
        Array.from(view.querySelectorAll('.hex-bytes [data-i]'), (cell) => (cell.lastChild?.textContent ?? '').trim().toLowerCase()),
      );
      expect(hexCells).toEqual(Array.from(callBytes, (byte) => byte.toString(16).padStart(2, '0')));
      await expectAccessible(page, 'trace of a third-party server: byte inspector on its tool call');
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The reply's structured result, from the real server.
      const replyRow = traceRows(page).filter({ hasText: 'response to tools/call #2' });
      await replyRow.locator('.log-entry__row').click();
      expect(await replyRow.textContent()).toContain('Ada Lovelace');
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
