// The HTTP stepper in real Chromium on the bridge and on the in-browser worker: switch the protocol
// view to Streamable HTTP, run the session to its end (initialize → 200 with a session id,
// initialized → 202, GET → the server's stream, tools/call → SSE with progress then the result,
// DELETE), and open connections in the HTTP byte inspector: its hex dump is the bytes the tap
// reported, chunk for chunk, read as HTTP (headers singled out, chunk sizes, SSE events linked to
// their JSON-RPC messages). One page per host; the two run side by side. Then, on the worker, the
// session saved as a trace opens in the trace view as its messages, each row's connection in the
// same HTTP inspector with the bytes the file holds. On each host also the HTTP · 2026-07-28 scene
// to its end, and on the worker every scene's first arrow on the first screen (first-screen.ts).

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openOnHost, useAppAndBrowser, type HostKind } from './browser.ts';
import { limit } from './limits.ts';
import { expectFirstScreens } from './first-screen.ts';

const app = useAppAndBrowser();

/** The bytes the hex view shows, from its cells. */
async function hexBytes(page: Page, which: 'request' | 'response'): Promise<number[]> {
  return page
    .getByTestId(`http-${which}`)
    .locator('.hex-bytes [data-i]')
    .evaluateAll((cells) => cells.map((cell) => parseInt((cell.lastChild?.textContent ?? cell.textContent ?? '').trim(), 16)));
}

async function tapBytes(page: Page, which: 'request' | 'response'): Promise<number[]> {
  const b64 = await page.getByTestId(`http-${which}`).getAttribute('data-b64');
  return [...Buffer.from(b64 ?? '', 'base64')];
}

async function openConnection(page: Page, request: string): Promise<void> {
  await page.locator(`[data-testid=http-exchange][data-request="${request}"] [data-testid=http-arrow]`).first().click();
  await page.getByTestId('http-inspector').waitFor();
}

async function closeInspector(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByTestId('http-inspector').waitFor({ state: 'detached' });
}

describe('the HTTP stepper', () => {
  for (const host of ['bridge', 'worker'] as const satisfies readonly HostKind[]) {
    it.concurrent(`runs a whole Streamable HTTP session on the ${host} host, and the inspector shows the tap's bytes as HTTP`, async () => {
      const { page, close } = await openOnHost(app, host, '#protocol');
      try {
        await page.getByRole('radio', { name: 'HTTP · handshake' }).check();
        await page.getByTestId('http-stepper').waitFor();
        // The first step from the keyboard (→, as in the stdio stepper); the rest with the button.
        await page.getByRole('button', { name: 'Step ▶', exact: true }).focus();
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => document.querySelector('[data-testid=http-progress]')?.textContent === 'Step 1 of 5', undefined, { timeout: limit(20_000) });
        const session = await page.getByTestId('holds-session').textContent();
        expect(session).toMatch(/^[0-9a-f]{32}$/);

        await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
        await page.waitForFunction(() => document.querySelector('[data-testid=http-status]')?.getAttribute('data-status') === 'done', undefined, { timeout: limit(30_000) });
        const exchanges = await page.getByTestId('http-exchange').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-request')} → ${node.getAttribute('data-status')}`));
        expect(exchanges).toEqual(expect.arrayContaining(['POST initialize → 200', 'POST notifications/initialized → 202', 'GET → 200', 'POST tools/call → 200', 'DELETE → 200']));
        expect(await page.getByTestId('holds-session').textContent()).toBe('none');
        // axe is slow on a hex dump's thousands of cells: the diagram here, the inspector once below.
        if (host === 'worker') await expectAccessible(page, 'the HTTP stepper', { include: '[data-testid=http-stepper] .stepper__body' });

        // initialize: the request's headers read one by one, MCP's singled out; the response sets the session.
        await openConnection(page, 'POST initialize');
        expect(await hexBytes(page, 'request')).toEqual(await tapBytes(page, 'request'));
        expect(await hexBytes(page, 'response')).toEqual(await tapBytes(page, 'response'));
        const request = page.getByTestId('http-request');
        expect(await request.locator('[data-kind=start-line]').textContent()).toContain('POST /mcp HTTP/1.1');
        expect(await request.locator('[data-singled]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-singled')))).toEqual(
          expect.arrayContaining(['origin', 'accept', 'content-type', 'content-length']),
        );
        expect(await page.getByTestId('http-response').locator('[data-singled=mcp-session-id]').textContent()).toContain(session!);
        expect(await page.getByTestId('content-length-again').textContent()).toContain('Content-Length is back');
        // Linked both ways: a part lights its bytes; the keyboard cursor on a byte lights its part.
        await request.locator('[data-singled=origin] button').hover();
        const litText = await request.locator('.hex-text .is-lit').evaluateAll((cells) => cells.map((cell) => cell.textContent).join(''));
        expect(litText).toMatch(/^Origin: http:\/\/127\.0\.0\.1:\d+.{2}$/);
        await request.getByTestId('hex-view').focus();
        await page.keyboard.press('Home');
        expect(await request.locator('.http-part.is-lit').getAttribute('data-kind')).toBe('start-line');
        await closeInspector(page);

        // tools/call: a chunked event stream; each chunk's size line, the progress event, then the result.
        await openConnection(page, 'POST tools/call');
        expect(await hexBytes(page, 'response')).toEqual(await tapBytes(page, 'response'));
        const response = page.getByTestId('http-response');
        // Each chunk the tap reported starts at a marked byte of the hex view.
        const reported = Number(/(\d+) chunk/.exec((await response.getByTestId('tap-chunks').textContent()) ?? '')?.[1]);
        expect(reported).toBeGreaterThan(0);
        expect(await response.locator('.hex-bytes [data-chunk]').count()).toBe(reported);
        expect(await response.locator('[data-kind=chunk-size]').count()).toBeGreaterThan(1);
        expect(await response.locator('[data-singled=mcp-session-id], [data-singled=transfer-encoding]').count()).toBeGreaterThan(0);
        const events = await response.getByTestId('sse-event').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-summary')));
        // The priming event first (an id, empty data), the tool's progress, the result last.
        expect(events[0]).toBe('priming');
        expect(events.slice(1, -1)).toContain('notifications/progress');
        expect(events.every((summary) => ['priming', 'notifications/progress', 'result #1'].includes(summary!))).toBe(true);
        expect(events.at(-1)).toBe('result #1');
        // The response holds every HTTP field kind there is (chunk framing, SSE fields): check their contrast.
        if (host === 'bridge') await expectAccessible(page, 'the HTTP byte inspector', { include: '[data-testid=http-response]' });
        await closeInspector(page);

        // HTTP · 2026-07-28 on the same host: POST only, _meta and Mcp-Method / Mcp-Name, no session, no event ids.
        await page.getByRole('radio', { name: 'HTTP · 2026-07-28' }).check();
        expect(await page.getByTestId('http-stepper').getByRole('heading', { level: 3 }).first().textContent()).toBe('Streamable HTTP in 2026-07-28, step by step');
        expect(await page.getByTestId('http-status').textContent()).not.toContain('send initialize');
        await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
        await page.waitForFunction(() => document.querySelector('[data-testid=http-status]')?.getAttribute('data-status') === 'done', undefined, { timeout: limit(30_000) });
        expect(await page.getByTestId('http-progress').textContent()).toBe('Step 3 of 3');
        expect(await page.getByTestId('http-status').textContent()).toContain('no session to end');
        expect(await page.getByTestId('http-exchange').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-request')} → ${node.getAttribute('data-status')}`))).toEqual([
          'POST server/discover → 200',
          'POST tools/list → 200',
          'POST tools/call → 200',
        ]);
        expect(await page.getByTestId('holds-session').textContent()).toBe('none: 2026-07-28 has no sessions');
        await openConnection(page, 'POST tools/call');
        const modernRequest = Buffer.from(await tapBytes(page, 'request')).toString('utf8');
        const modernResponse = Buffer.from(await tapBytes(page, 'response')).toString('utf8');
        expect(modernRequest).toMatch(/^POST \/mcp HTTP\/1\.1\r\n/);
        expect(modernRequest).toMatch(/\r\nMcp-Method: tools\/call\r\n/i);
        expect(modernRequest).toMatch(/\r\nMcp-Name: echo\r\n/i);
        expect(modernRequest).toMatch(/\r\nMCP-Protocol-Version: 2026-07-28\r\n/i);
        expect(modernRequest).toContain('"io.modelcontextprotocol/protocolVersion":"2026-07-28"');
        expect(modernRequest).not.toMatch(/mcp-session-id/i);
        expect(modernResponse).not.toMatch(/mcp-session-id/i);
        expect(modernResponse).toContain('notifications/progress');
        expect(modernResponse).not.toMatch(/(^|\n)id:/);
        await closeInspector(page);

        // The first screen shows each scene's first arrow, in both languages, at both sizes.
        if (host === 'worker') await expectFirstScreens(page, ['stdio-handshake', 'stdio-modern', 'stdio-probe', 'http-handshake', 'http-modern']);
      } finally {
        await close();
      }
    });
  }

  it('saves the session as a trace that opens in the trace view as its messages, with the saved bytes in the HTTP inspector', async () => {
    const { page, close, consoleLines } = await openOnHost(app, 'worker', '#protocol');
    const folder = await mkdtemp(join(tmpdir(), 'http-trace-e2e-'));
    try {
      await page.getByRole('radio', { name: 'HTTP · handshake' }).check();
      await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('[data-testid=http-status]')?.getAttribute('data-status') === 'done', undefined, { timeout: limit(30_000) });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-http-trace').click()]);
      const saved = join(folder, download.suggestedFilename());
      await download.saveAs(saved);
      const lines = (await readFile(saved, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { mode?: string; ev?: string; conn?: number; b64?: string });
      expect(lines[0]).toMatchObject({ format: 'mcp-playground-trace', mode: 'http' });

      await page.goto(`${app.url}?host=worker#trace`);
      await page.getByTestId('trace-file-input').setInputFiles(saved);
      const rows = page.getByRole('list', { name: 'Message log (trace)', exact: true }).getByRole('listitem');
      // Rows show while the file is read; the summary says it was read to the end.
      await page.getByTestId('trace-summary').waitFor({ timeout: limit(15_000) });
      const texts = (await rows.allTextContents()).join('\n');
      for (const message of ['initialize #0', 'response to initialize #0', 'notifications/initialized', 'tools/call #1', 'notifications/progress', 'response to tools/call #1']) expect(texts).toContain(message);

      // The tools/call request's row opens its connection: the hex view is the file's bytes of that connection.
      const row = page.locator('.log-entry--c2s').filter({ hasText: 'tools/call #1' });
      await row.locator('.log-entry__row').click();
      await row.getByRole('button', { name: 'Inspect bytes: frame 1' }).click();
      await page.getByTestId('http-inspector').waitFor();
      const request = Buffer.from((await page.getByTestId('http-request').getAttribute('data-b64')) ?? '', 'base64');
      expect(request.toString('latin1')).toMatch(/^POST \/mcp HTTP\/1\.1\r\n/);
      const conn = lines.find((line) => line.ev === 'c2s' && line.b64 !== undefined && Buffer.from(line.b64, 'base64').includes('"tools/call"'))!.conn;
      const fileBytes = (ev: string) => [...Buffer.concat(lines.filter((line) => line.ev === ev && line.conn === conn).map((line) => Buffer.from(line.b64!, 'base64')))];
      expect([...request]).toEqual(fileBytes('c2s'));
      expect(await hexBytes(page, 'request')).toEqual(fileBytes('c2s'));
      expect(await hexBytes(page, 'response')).toEqual(fileBytes('s2c'));
      expect(await page.getByTestId('http-response').getByTestId('sse-event').last().getAttribute('data-summary')).toBe('result #1');
      await expectAccessible(page, 'the HTTP inspector opened from a trace row', { include: '[data-testid=http-request]' });
      await closeInspector(page);
      // Focus is back on the button that opened it (the dialog lives in a portal, the row stays).
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('log-inspect');
      // The read-only diagram's first arrow (the initialize request) opens its connection from the keyboard too.
      const firstArrow = page.getByTestId('diagram-arrow').first();
      expect(await firstArrow.getAttribute('aria-label')).toContain('initialize');
      await firstArrow.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('http-inspector').waitFor();
      expect(Buffer.from((await page.getByTestId('http-request').getAttribute('data-b64')) ?? '', 'base64').toString('utf8')).toContain('"method":"initialize"');
      await closeInspector(page);
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a failure card on the worker host: a stale session after a restart gets 404, then initialize again gets a new session', async () => {
    const { page, close } = await openOnHost(app, 'worker', '#protocol');
    try {
      await page.getByRole('radio', { name: 'HTTP · handshake' }).check();
      await page.getByText('Failure lab: HTTP cards', { exact: true }).click();
      const card = page.getByTestId('http-card-stale-session');
      await card.getByRole('button', { name: 'Run on the live host' }).click();
      await card.getByTestId('http-card-result').waitFor({ timeout: limit(20_000) });
      const exchanges = card.getByTestId('http-card-exchange');
      expect(await exchanges.evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-role')} ${node.getAttribute('data-status')}`))).toEqual(['setup 200', 'symptom 404', 'recovery 200']);
      expect(await exchanges.nth(1).getByTestId('http-card-status').textContent()).toBe('HTTP/1.1 404 Not Found');
      // The old session id, from the first answer, went out in the second request's exact bytes.
      const first = await exchanges.nth(0).locator('pre').nth(1).textContent();
      expect(first).toBe('HTTP/1.1 200 OK');
      expect(await exchanges.nth(1).locator('pre').first().textContent()).toMatch(/Mcp-Session-Id: [0-9a-f]{32}␍␊/);
      // The card names each session id it talks about: the old one given and sent back, the new one.
      const old = await exchanges.nth(0).getByTestId('http-card-session-given').getAttribute('data-session-id');
      expect(old).toMatch(/^[0-9a-f]{32}$/);
      expect(await exchanges.nth(1).getByTestId('http-card-session-sent').getAttribute('data-session-id')).toBe(old);
      const renewed = await exchanges.nth(2).getByTestId('http-card-session-given').getAttribute('data-session-id');
      expect(renewed).toMatch(/^[0-9a-f]{32}$/);
      expect(renewed).not.toBe(old);
      expect(await exchanges.nth(2).getByTestId('http-card-session-given').textContent()).toBe(`The server gave Mcp-Session-Id: ${renewed}`);
      await expectAccessible(page, 'the HTTP failure cards', { include: '[data-testid=http-cards]' });
    } finally {
      await close();
    }
  });
});
