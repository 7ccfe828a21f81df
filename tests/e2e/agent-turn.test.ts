// The Chapter loop in real Chromium against the production build, on the local bridge and on the
// in-browser worker: the merge refused without a prefix (the add clash) and accepted with one, a
// full agent turn with Approve (delete_file ran, its frames exist and open in the inspector) and
// one with Deny (a refusal observation, no tools/call for delete_file on the wire), and the same
// turn with the learner's own exercise 5 code running in the learner worker (once, on the bridge).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { HOST_NAMES, openOnHost, useAppAndBrowser, type HostKind, type TestPage } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

const open = (host: HostKind, beforeLoad?: (page: Page) => Promise<unknown>): Promise<TestPage> => openOnHost(app, host, '#agent', beforeLoad);

const prefixBox = (page: Page) => page.getByRole('checkbox', { name: 'Prefix remote tools with mcp__echo__' });

async function connectAndMerge(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Connect and merge', exact: true }).click();
  await page.waitForFunction(() => ['ready', 'failed'].includes(document.querySelector('[data-testid=agent-status]')?.getAttribute('data-phase') ?? ''), undefined, { timeout: limit(20_000) });
  expect(await page.getByTestId('agent-status').getAttribute('data-phase')).toBe('ready');
}

async function tableRows(page: Page): Promise<string[]> {
  return page.getByTestId('agent-registry').locator('tbody tr').evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-name')}:${row.getAttribute('data-origin')}:${row.getAttribute('data-tier')}`));
}

async function finalAnswer(page: Page): Promise<string> {
  await page.getByTestId('agent-final').waitFor({ timeout: limit(20_000) });
  return (await page.getByTestId('agent-final').textContent()) ?? '';
}

const entry = (page: Page, type: string, call: number) => page.locator(`[data-testid=agent-transcript] li[data-type=${type}][data-call="${call}"]`);

async function mergeWithAndWithoutPrefix(page: Page): Promise<void> {
  await prefixBox(page).uncheck();
  await connectAndMerge(page);
  const error = (await page.getByTestId('merge-error').textContent()) ?? '';
  expect(error).toContain('DuplicateToolError');
  expect(error).toContain('"add"');
  expect((await tableRows(page)).filter((row) => row.includes(':mcp:'))).toEqual([]);
  // The status says the merge was refused, not that the registry is ready.
  expect(await page.getByTestId('agent-status').textContent()).toBe('Connected, but the merge was refused: the registry holds the local tools only. See why below.');

  await prefixBox(page).check();
  await connectAndMerge(page);
  expect(await page.getByTestId('merge-report').getAttribute('data-ok')).toBe('true');
  expect(await page.getByTestId('agent-status').textContent()).toBe('Connected. The registry is ready for a turn.');
  const rows = await tableRows(page);
  expect(rows).toContain('add:local:auto');
  expect(rows).toContain('mcp__echo__add:mcp:auto');
  expect(rows).toContain('mcp__echo__delete_file:mcp:approve');
}

async function runTurnAnswering(page: Page, answer: 'approve' | 'deny'): Promise<string> {
  await page.getByRole('button', { name: 'Run the turn', exact: true }).click();
  const dialog = page.getByTestId('approval-dialog');
  await dialog.getByRole('heading', { name: 'Approve this tool call?' }).waitFor({ timeout: limit(20_000) });
  expect(await dialog.textContent()).toContain('mcp__echo__delete_file');
  expect(await page.getByTestId('approval-args').textContent()).toContain('"path": "/tmp/scratch.txt"');
  // Focus starts on the safe choice.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deny');
  if (answer === 'approve') await dialog.getByRole('button', { name: 'Approve and run' }).click();
  else await page.keyboard.press('Escape');
  return finalAnswer(page);
}

for (const host of ['bridge', 'worker'] as const) {
  describe(`the Chapter loop on the ${HOST_NAMES[host]} host`, () => {
    it('refuses the clash without a prefix, merges with one, and runs turns with Approve and with Deny', async () => {
      const { page, close, consoleLines } = await open(host);
      try {
        await mergeWithAndWithoutPrefix(page);

        const approved = await runTurnAnswering(page, 'approve');
        expect(approved).toContain('hello from MCP');
        expect(approved).toContain('2 + 3 = 5');
        expect(approved).toContain('would delete /tmp/scratch.txt');
        expect(await entry(page, 'decision', 3).getAttribute('data-kind')).toBe('approved');
        if (host === 'worker') await expectAccessible(page, 'the chapter loop after a merge and an approved turn');

        // The delete_file call's own frames: open the request in the byte inspector.
        const frames = entry(page, 'call', 3).getByTestId('inspect-call-frame');
        expect(await frames.count()).toBe(2);
        const requestButton = frames.first();
        const id = /#(\d+)/.exec((await requestButton.textContent()) ?? '')![1];
        await requestButton.click();
        const inspector = page.getByTestId('byte-inspector');
        await inspector.waitFor();
        const title = (await page.locator('#inspector-title').textContent()) ?? '';
        expect(title).toContain(`tools/call #${id}`);
        expect(await inspector.textContent()).toContain('delete_file');
        await page.keyboard.press('Escape');
        await inspector.waitFor({ state: 'detached' });

        // …and the call's band in the diagram.
        await entry(page, 'call', 3).getByTestId('show-in-diagram').click();
        expect(await page.locator('#agent-diagram').getAttribute('data-highlight-band')).toBe('3');

        // Deny on the same connection: the refusal is the observation, and delete_file never crosses
        // the wire (two more tools/call requests, echo and add, not three).
        const toolCalls = () => page.getByTestId('diagram-arrow').evaluateAll((nodes) => nodes.filter((node) => (node.getAttribute('aria-label') ?? '').startsWith('client → server: tools/call')).length);
        expect(await toolCalls()).toBe(3);
        const denied = await runTurnAnswering(page, 'deny');
        expect(denied).toContain('The user denied the call to mcp__echo__delete_file');
        expect(await entry(page, 'observation', 3).getAttribute('data-kind')).toBe('denied');
        expect(await entry(page, 'call', 3).getByTestId('inspect-call-frame').count()).toBe(0);
        expect(await toolCalls()).toBe(5);
        expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
      } finally {
        await close();
      }
    });
  });
}

// The learner's code once (on the bridge: the host where the echo server is a real Node process).
describe("the Chapter loop with the learner's code", () => {
  it("runs the same turn with the learner's own registerMcpTools in the worker", async () => {
    const reference = readFileSync(join(import.meta.dirname, '../../src/protocol/remote-tools.ts'), 'utf8');
    const progress = JSON.stringify({ version: 1, exercises: { '05-register-mcp-tools': { code: reference, completed: false, hintsRevealed: 0 } } });
    const { page, close } = await open('bridge', (target) => target.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress));
    try {
      await page.getByRole('radio', { name: 'Your code (exercise 5)' }).check();
      // Exercise 5 is not marked complete and has not run in this page: the scene says so first.
      const unfinished = page.locator('.agent-merge').getByTestId('unfinished-exercise');
      expect(await unfinished.textContent()).toBe('This runs your exercise 5 code, which does not pass its tests yet.Open exercise 5');
      await mergeWithAndWithoutPrefix(page);
      const approved = await runTurnAnswering(page, 'approve');
      expect(approved).toContain('would delete /tmp/scratch.txt');
      expect(await entry(page, 'call', 3).getByTestId('inspect-call-frame').count()).toBe(2);
      // Its link, by keyboard, opens exercise 5 in the study view.
      await unfinished.getByRole('link', { name: 'Open exercise 5' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Remote tools in the local registry', level: 2 }).waitFor({ timeout: limit(10_000) });
      expect(await page.getByRole('button', { name: /Remote tools in the local registry/ }).getAttribute('aria-current')).toBe('true');
    } finally {
      await close();
    }
  });
});
