// Server features in the live panel, in real Chromium on the bridge (a real Node mcp-http
// --tools=features behind the relay tap) and on the in-browser worker: a resource update arrives
// after subscribe, a log level change filters notifications/message, the progress bar moves, and
// a sampling request is approved once and denied once at the approval gate. Each action's
// connection opens in the HTTP byte inspector with the bytes the tap reported. One page per host.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openOnHost, useAppAndBrowser, type HostKind } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

/** Open a connection of the shown tab (or of the session) whose request line starts with `request`. */
async function inspect(page: Page, list: 'features-tab-exchanges' | 'features-session-exchanges', request: string, nth: 'first' | 'last' = 'first'): Promise<{ request: string; response: string }> {
  const buttons = page.getByTestId(list).locator(`[data-testid=features-exchange][data-request="${request}"]`);
  await (nth === 'first' ? buttons.first() : buttons.last()).click();
  await page.getByTestId('http-inspector').waitFor();
  const bytes = async (which: 'request' | 'response') => Buffer.from((await page.getByTestId(`http-${which}`).getAttribute('data-b64')) ?? '', 'base64').toString('utf8');
  const shown = { request: await bytes('request'), response: await bytes('response') };
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByTestId('http-inspector').waitFor({ state: 'detached' });
  return shown;
}

async function tab(page: Page, name: string): Promise<void> {
  await page.getByTestId(`features-tab-${name}`).click();
}

async function idle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[data-testid=features-status] .hint'), undefined, { timeout: limit(15_000) });
}

describe('Server features in the live panel', () => {
  for (const host of ['bridge', 'worker'] as const satisfies readonly HostKind[]) {
    it.concurrent(`shows resources, prompts, logging, progress and sampling against the live feature server on the ${host} host`, async () => {
      const { page, close } = await openOnHost(app, host, '#workspace');
      try {
        await page.getByTestId('server-features').locator('summary').click();
        await page.getByTestId('features-connect').click();
        await page.waitForFunction(() => document.querySelector('[data-testid=features-status]')?.getAttribute('data-status') === 'ready', undefined, { timeout: limit(20_000) });
        expect(await page.getByTestId('features-status').textContent()).toMatch(/Session id [0-9a-f]{32}/);

        // Resources: subscribe, change, and the update notification arrives on the GET stream.
        await page.getByTestId('resources-list').click();
        await page.getByTestId('resource-subscribe-demo://counter').click();
        await idle(page);
        await page.getByTestId('resources-change').click();
        await page.getByTestId('resources-updates').locator('li').first().waitFor({ timeout: limit(10_000) });
        expect(await page.getByTestId('resources-updates').textContent()).toContain('demo://counter');
        await idle(page);
        await page.getByTestId('resources-read-again').click();
        await page.getByTestId('resources-contents').waitFor();
        expect(await page.getByTestId('resources-contents').textContent()).toBe('count: 1');
        const subscribe = await inspect(page, 'features-tab-exchanges', 'POST resources/subscribe');
        expect(subscribe.request).toMatch(/^POST \/mcp HTTP\/1\.1\r\n[\s\S]*\r\n\r\n\{"jsonrpc":"2\.0","id":\d+,"method":"resources\/subscribe","params":\{"uri":"demo:\/\/counter"\}\}$/);
        const stream = await inspect(page, 'features-session-exchanges', 'GET');
        expect(stream.response).toMatch(/text\/event-stream[\s\S]*data: \{"jsonrpc":"2\.0","method":"notifications\/resources\/updated","params":\{"uri":"demo:\/\/counter"\}\}/);

        // Prompts: get with an argument.
        await tab(page, 'prompts');
        await page.getByTestId('prompts-list').click();
        await page.getByTestId('prompt-arg-topic').fill('HTTP');
        await page.getByTestId('prompt-get-explain').click();
        await page.getByTestId('prompts-result').waitFor();
        expect(await page.getByTestId('prompts-result').textContent()).toContain('Explain HTTP to a beginner');

        // Logging: every level at first; after logging/setLevel error, only error still comes.
        await tab(page, 'logging');
        await page.getByTestId('logging-run').click();
        await page.locator('[data-testid=logging-run-result][data-run="1"] [data-arrived=yes]').nth(4).waitFor();
        await page.getByTestId('logging-level').selectOption('error');
        await page.getByTestId('logging-set').click();
        await page.getByText('Level set by the client: error').waitFor();
        await page.getByTestId('logging-run').click();
        await page.locator('[data-testid=logging-run-result][data-run="2"]').waitFor();
        await idle(page);
        const arrived = (run: number) => page.locator(`[data-testid=logging-run-result][data-run="${run}"] li`).evaluateAll((items) => items.map((item) => `${item.getAttribute('data-level')}:${item.getAttribute('data-arrived')}`));
        expect(await arrived(1)).toEqual(['debug:yes', 'info:yes', 'notice:yes', 'warning:yes', 'error:yes']);
        expect(await arrived(2)).toEqual(['debug:no', 'info:no', 'notice:no', 'warning:no', 'error:yes']);
        const setLevel = await inspect(page, 'features-tab-exchanges', 'POST logging/setLevel');
        expect(setLevel.request).toContain('"params":{"level":"error"}');
        const filtered = await inspect(page, 'features-tab-exchanges', 'POST tools/call', 'last');
        expect(filtered.response.match(/"method":"notifications\/message"/g)).toHaveLength(1);

        // Progress: the bar takes each value the notifications carry, then the result comes.
        await tab(page, 'progress');
        await page.evaluate(() => {
          const seen: number[] = [];
          (window as unknown as { progressSeen: number[] }).progressSeen = seen;
          new MutationObserver(() => {
            const bar = document.querySelector<HTMLProgressElement>('[data-testid=progress-bar]');
            if (bar && seen.at(-1) !== bar.value) seen.push(bar.value);
          }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
        });
        await page.getByTestId('progress-run').click();
        await page.getByTestId('progress-result').waitFor({ timeout: limit(10_000) });
        expect(await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen)).toEqual([0, 1, 2, 3, 4, 5]);
        expect(await page.getByTestId('progress-text').textContent()).toContain('5 of 5');
        const progress = await inspect(page, 'features-tab-exchanges', 'POST tools/call');
        expect(progress.response.match(/"method":"notifications\/progress"/g)).toHaveLength(5);

        // Sampling: the request waits at the gate. Approve sends the scripted model's answer...
        await tab(page, 'sampling');
        await page.getByTestId('sampling-ask').click();
        await page.getByTestId('sampling-dialog').getByTestId('sampling-answer').waitFor();
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sampling-deny');
        if (host === 'worker') await expectAccessible(page, 'the sampling approval dialog', { include: '[data-testid=sampling-dialog]' });
        await page.getByTestId('sampling-approve').click();
        await page.getByTestId('sampling-result').waitFor();
        expect(await page.getByTestId('sampling-result').getAttribute('data-error')).toBe('no');
        expect(await page.getByTestId('sampling-result').textContent()).toContain('scripted-model answered: (scripted model)');
        // ...and Deny (Escape, the dialog's safe way out) sends error -1: the tool reports it failed.
        await page.getByTestId('sampling-ask').click();
        await page.getByTestId('sampling-dialog').getByTestId('sampling-answer').waitFor();
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => document.querySelector('[data-testid=sampling-result]')?.getAttribute('data-error') === 'yes', undefined, { timeout: limit(10_000) });
        expect(await page.getByTestId('sampling-result').textContent()).toContain('-1: User rejected sampling request');
        expect(await page.getByTestId('sampling-decisions').locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-decision')))).toEqual(['approved', 'denied']);
        const approved = await inspect(page, 'features-tab-exchanges', 'POST', 'first');
        expect(approved.request).toMatch(/"result":\{"role":"assistant","content":\{"type":"text","text":"\(scripted model\)(?:[^"\\]|\\.)*"\},"model":"scripted-model","stopReason":"endTurn"\}\}$/);
        expect(approved.response).toMatch(/^HTTP\/1\.1 202 /);
        const denied = await inspect(page, 'features-tab-exchanges', 'POST', 'last');
        expect(denied.request).toMatch(/"error":\{"code":-1,"message":"User rejected sampling request"\}\}$/);
        const asked = await inspect(page, 'features-tab-exchanges', 'POST tools/call', 'first');
        expect(asked.response).toContain('"method":"sampling/createMessage"');

        if (host === 'worker') await expectAccessible(page, 'the Server features panel', { include: '[data-testid=server-features]' });
        // The whole session saves as an HTTP trace: the update notification's bytes are in it.
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('features-save-trace').click()]);
        const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { mode?: string; ev?: string; b64?: string });
        expect(lines[0]).toMatchObject({ mode: 'http', program: ['mcp-http', '--tools=features'] });
        const received = lines.filter((line) => line.ev === 's2c').map((line) => Buffer.from(line.b64!, 'base64').toString('utf8')).join('');
        expect(received).toContain('"method":"notifications/resources/updated"');
        // The tabs by keyboard: arrows move between them.
        await page.getByTestId('features-tab-sampling').focus();
        await page.keyboard.press('Home');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('features-tab-resources');
        expect(await page.getByTestId('features-tab-resources').getAttribute('aria-selected')).toBe('true');
      } finally {
        await close();
      }
    });
  }
});
