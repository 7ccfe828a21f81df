// The learner's exercise 6 module in real Chromium, on the bridge and on the in-browser worker,
// with the reference module saved as the learner's code: "Your code (exercise 6)" drives the HTTP
// stepper to its end — the module runs in the learner worker, its requests go out through the
// page's HTTP/1.1 client over the host's relayed connection — and the inspector's bytes are the
// tap's. Then Check my client in HTTP mode runs the same module against the official SDK's
// Streamable HTTP server (sdk-http-server: a Node process behind the bridge's relay, or the SDK
// handler in a worker) and passes every check. One page per host; a third page keeps the starter as
// it is given: the first step stops with its TODO, and so does Check my client.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openOnHost, useAppAndBrowser, type HostKind } from './browser.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
const reference = readFileSync(join(PROJECT_ROOT, 'src/protocol/http/streamable-client.ts'), 'utf8');
const progress = JSON.stringify({ version: 1, exercises: { '06-streamable-http': { code: reference, completed: false, hintsRevealed: 0 } } });

async function bytesOf(page: Page, which: 'request' | 'response'): Promise<{ hex: number[]; tap: number[] }> {
  const part = page.getByTestId(`http-${which}`);
  const hex = await part.locator('.hex-bytes [data-i]').evaluateAll((cells) => cells.map((cell) => parseInt((cell.lastChild?.textContent ?? cell.textContent ?? '').trim(), 16)));
  const tap = [...Buffer.from((await part.getAttribute('data-b64')) ?? '', 'base64')];
  return { hex, tap };
}

describe("the learner's exercise 6 module in the page", () => {
  for (const host of ['bridge', 'worker'] as const satisfies readonly HostKind[]) {
    it.concurrent(`drives the HTTP stepper to its end on the ${host} host, and passes Check my client in HTTP mode there`, async () => {
      const { page, close, consoleLines } = await openOnHost(app, host, '#protocol', (target) => target.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress));
      try {
        await page.getByRole('radio', { name: 'HTTP · handshake' }).check();
        await page.getByTestId('http-stepper').waitFor();
        await page.getByRole('radio', { name: 'Your code (exercise 6)' }).check();
        await expect(page.getByTestId('http-driver').textContent()).resolves.toContain('Your exercise 6 module is speaking');
        await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
        await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('[data-testid=http-status]')?.getAttribute('data-status') ?? ''), undefined, { timeout: limit(30_000) });
        expect(await page.getByTestId('http-status').getAttribute('data-status'), `${await page.getByTestId('http-status').textContent()}\n${consoleLines.join('\n')}`).toBe('done');
        const exchanges = await page.getByTestId('http-exchange').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-request')} → ${node.getAttribute('data-status')}`));
        expect(exchanges).toEqual(expect.arrayContaining(['POST initialize → 200', 'POST notifications/initialized → 202', 'GET → 200', 'POST tools/call → 200', 'DELETE → 200']));
        expect(await page.getByTestId('http-holds').textContent()).toMatch(/Progress seen\S*\d/);
        if (host === 'worker') await expectAccessible(page, 'the HTTP stepper driven by your code', { include: '[data-testid=http-stepper] .stepper__toolbar, [data-testid=http-driver]' });

        // Every arrow's bytes in the inspector are the relayed connection's tap bytes.
        for (const request of ['POST initialize', 'POST tools/call', 'DELETE']) {
          await page.locator(`[data-testid=http-exchange][data-request="${request}"] [data-testid=http-arrow]`).first().click();
          await page.getByTestId('http-inspector').waitFor();
          for (const which of ['request', 'response'] as const) {
            const { hex, tap } = await bytesOf(page, which);
            expect(hex.length, `${request} ${which}`).toBeGreaterThan(0);
            expect(hex, `${request} ${which}`).toEqual(tap);
          }
          await page.getByRole('button', { name: 'Close', exact: true }).click();
          await page.getByTestId('http-inspector').waitFor({ state: 'detached' });
        }

        // Check my client, HTTP mode, chosen from the keyboard.
        await page.evaluate(() => (location.hash = '#agent'));
        await page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });
        const choice = page.getByRole('radio', { name: 'your Streamable HTTP client (exercise 6, HTTP mode)' });
        await choice.focus();
        await page.keyboard.press('Space');
        await expect(choice.isChecked()).resolves.toBe(true);
        await expect(page.getByTestId('client-check-server').count()).resolves.toBe(0);
        await page.getByTestId('sdk-run-client').click();
        await page.waitForFunction(() => ['pass', 'fail', 'error'].includes(document.querySelector('[data-testid=sdk-report-client]')?.getAttribute('data-status') ?? ''), undefined, { timeout: limit(30_000) });
        const report = page.getByTestId('sdk-report-client');
        const checks = await report.getByTestId('sdk-check').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-check')}:${node.getAttribute('data-status')}`));
        expect(checks, (await report.textContent()) ?? '').toEqual(['http-initialize:pass', 'http-initialized:pass', 'http-list-tools:pass', 'http-call-echo:pass', 'http-delete:pass']);
        await expect(page.getByTestId('sdk-status-client').textContent()).resolves.toBe(`All 5 checks passed on the ${host} host.`);
        if (host === 'worker') await expectAccessible(page, 'Check my client in HTTP mode', { include: '[data-testid=sdk-checks]' });
      } finally {
        await close();
      }
    });
  }

  it.concurrent("with the starter as it is given, the stepper stops at the first step with the starter's TODO, and Check my client fails with it", async () => {
    const { page, close } = await openOnHost(app, 'worker', '#protocol');
    try {
      await page.getByRole('radio', { name: 'HTTP · handshake' }).check();
      await page.getByRole('radio', { name: 'Your code (exercise 6)' }).check();
      await page.getByRole('button', { name: 'Step ▶', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('[data-testid=http-status]')?.getAttribute('data-status') === 'failed', undefined, { timeout: limit(20_000) });
      expect(await page.getByTestId('http-status').textContent()).toMatch(/TODO: send .*\(streamable-client\.ts line \d+\)/);
      await expect(page.getByTestId('http-exchange').count()).resolves.toBe(0);

      await page.evaluate(() => (location.hash = '#agent'));
      await page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });
      await page.getByRole('radio', { name: 'your Streamable HTTP client (exercise 6, HTTP mode)' }).check();
      await expect(page.getByTestId('sdk-checks').textContent()).resolves.toContain('06-streamable-http · streamable-client.ts');
      await page.getByTestId('sdk-run-client').click();
      await page.waitForFunction(() => ['pass', 'fail', 'error'].includes(document.querySelector('[data-testid=sdk-report-client]')?.getAttribute('data-status') ?? ''), undefined, { timeout: limit(30_000) });
      expect(await page.getByTestId('sdk-report-client').getAttribute('data-status')).toBe('fail');
      expect(await page.locator('[data-check="http-initialize"] .test-result__message').textContent()).toMatch(/TODO: send/);
    } finally {
      await close();
    }
  });
});
