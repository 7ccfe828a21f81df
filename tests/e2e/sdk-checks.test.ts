// "Check my client" and "Check my server" in real Chromium against the production build, on the
// local bridge and on the in-browser worker host: with the reference code saved as the learner's
// exercise 3 and 4 files both pass every check; with a chapter failure mode put back (a client that
// pairs answers by arrival order, a server that answers notifications) each fails, and the report
// names the failing check. The panel sits in the Chapter loop view (#agent).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { applyEdits } from '../mutants/apply-mutant.ts';
import pairByArrivalOrder from '../mutants/03-client/pair-by-arrival-order.ts';
import answersNotifications from '../mutants/04-server/answers-notifications.ts';
import { startServer } from '../../server/start.ts';
import { encodeShareHash } from '../../src/exercise/share-link.ts';
import { createProgressFile } from '../../src/exercise/progress-transfer.ts';
import { openOnHost, openPage, useAppAndBrowser, type HostKind, type TestPage } from './browser.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { limit } from './limits.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

const app = useAppAndBrowser();

const referenceClient = read('src/protocol/client.ts');
const referenceServer = read('src/protocol/server.ts');
const mutantClient = applyEdits(referenceClient, pairByArrivalOrder.edits, { mutant: '03-client/pair-by-arrival-order', file: pairByArrivalOrder.file });
const mutantServer = applyEdits(referenceServer, answersNotifications.edits, { mutant: '04-server/answers-notifications', file: answersNotifications.file });

/** The page with `client` and `server` saved as the learner's exercise 3 and 4 code. */
async function open(host: HostKind, client: string, server_: string): Promise<TestPage> {
  const progress = JSON.stringify({
    version: 1,
    exercises: {
      '03-client': { code: client, completed: false, hintsRevealed: 0 },
      '04-server': { code: server_, completed: false, hintsRevealed: 0 },
    },
  });
  const opened = await openOnHost(app, host, '#agent', (page) => page.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress));
  await opened.page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });
  return opened;
}

interface Outcome {
  status: string;
  summary: string;
  checks: Array<[string, string]>;
  failures: Record<string, string>;
}

/** Press the suite's button with the keyboard, wait for its report, and read it. */
async function runSuite(page: Page, suite: 'client' | 'server'): Promise<Outcome> {
  const button = page.getByTestId(`sdk-run-${suite}`);
  await button.focus();
  await page.keyboard.press('Enter');
  // Progress is announced while it runs, then the report replaces it.
  await page.waitForFunction((name) => ['pass', 'fail', 'error'].includes(document.querySelector(`[data-testid=sdk-report-${name}]`)?.getAttribute('data-status') ?? ''), suite, { timeout: limit(60_000) });
  const report = page.getByTestId(`sdk-report-${suite}`);
  const items = report.getByTestId('sdk-check');
  const checks = (await items.evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-check') ?? '', node.getAttribute('data-status') ?? '']))) as Array<[string, string]>;
  const failures: Record<string, string> = {};
  for (const [id, status] of checks) {
    if (status !== 'pass') failures[id] = (await report.locator(`[data-check="${id}"] .test-result__message`).textContent()) ?? '';
  }
  return { status: (await report.getAttribute('data-status')) ?? '', summary: (await page.getByTestId(`sdk-status-${suite}`).textContent()) ?? '', checks, failures };
}

const CLIENT_IDS = ['handshake', 'list-tools', 'call-echo', 'in-flight', 'unknown-tool', 'bytes', 'close'];
const SERVER_IDS = ['handshake', 'list-tools', 'call-echo', 'failing-tool', 'unknown-tool', 'ping', 'nothing-stray'];

describe.each(['bridge', 'worker'] as const)('the SDK checks on the %s host', (host) => {
  it('pass every check with the reference client and server', async () => {
    const { page, consoleLines, close } = await open(host, referenceClient, referenceServer);
    try {
      const client = await runSuite(page, 'client');
      expect(client.failures, consoleLines.join('\n')).toEqual({});
      expect(client.checks).toEqual(CLIENT_IDS.map((id) => [id, 'pass']));
      expect(client.summary).toBe(`All 7 checks passed on the ${host} host.`);
      const serverReport = await runSuite(page, 'server');
      expect(serverReport.failures, consoleLines.join('\n')).toEqual({});
      expect(serverReport.checks).toEqual(SERVER_IDS.map((id) => [id, 'pass']));
      // On the bridge too: the e2e server runs with --learner-code-in-node, so in its sandbox.
      expect(serverReport.summary).toBe(`All 7 checks passed on the ${host} host.`);
    } finally {
      await close();
    }
  });

  it('fail with a clear report against the chapter failure modes, naming the failing check', async () => {
    const { page, consoleLines, close } = await open(host, mutantClient, mutantServer);
    try {
      const client = await runSuite(page, 'client');
      expect(client.status, consoleLines.join('\n')).toBe('fail');
      expect(Object.keys(client.failures)).toEqual(['in-flight']);
      expect(client.failures['in-flight']).toMatch(/paired with requests by id, never by arrival order/);
      expect(client.summary).toBe(`1 of 7 checks did not pass on the ${host} host.`);
      const serverReport = await runSuite(page, 'server');
      expect(serverReport.status).toBe('fail');
      expect(Object.keys(serverReport.failures)).toEqual(['nothing-stray']);
      expect(serverReport.failures['nothing-stray']).toMatch(/A notification must never be answered/);
      // Expected and actual are shown as the exercises show them.
      await expect(page.getByTestId('sdk-report-server').locator('[data-check="nothing-stray"] .diff-line--received').textContent()).resolves.toContain('"id":null');
    } finally {
      await close();
    }
  });
});

describe('a bridge that does not run learner code (npm start without --learner-code-in-node)', () => {
  it('Check my server runs in the worker and the panel says why; Check my client still runs on the bridge', async () => {
    const plain = await startServer({ port: 0, skipBuild: true, log: () => {} });
    const opened = await openPage(app.browser);
    try {
      const progress = JSON.stringify({ version: 1, exercises: { '03-client': { code: referenceClient, completed: false, hintsRevealed: 0 }, '04-server': { code: referenceServer, completed: false, hintsRevealed: 0 } } });
      await opened.page.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress);
      await opened.page.goto(`${plain.url}?host=bridge#agent`);
      await opened.page.getByText('Live host: Local bridge').waitFor({ timeout: limit(15_000) });
      await expect(opened.page.getByTestId('sdk-fallback-server').textContent()).resolves.toContain('--learner-code-in-node');
      await expect(opened.page.locator('[data-testid=sdk-hosts] tr[data-host=bridge] td[data-check=server]').textContent()).resolves.toBe('runs in the worker instead');
      const serverReport = await runSuite(opened.page, 'server');
      expect(serverReport.failures, opened.consoleLines.join('\n')).toEqual({});
      expect(serverReport.summary).toBe('All 7 checks passed on the worker host.');
      expect(plain.bridge.activeProcesses).toBe(0);
      const client = await runSuite(opened.page, 'client');
      expect(client.summary).toBe('All 7 checks passed on the bridge host.');
    } finally {
      await opened.close();
      await plain.close();
    }
  });
});

describe('code from a share link', () => {
  it('Check my server asks before running it on the bridge; no runs nothing, yes runs it there', async () => {
    const link = await encodeShareHash({ exerciseId: '04-server', code: referenceServer });
    if (!link.ok) throw new Error('could not make the share link');
    const opened = await openPage(app.browser);
    const { page } = opened;
    try {
      // The learner's own exercise 3 client, so Check my client is not what this is about.
      const progress = JSON.stringify({ version: 1, exercises: { '03-client': { code: referenceClient, completed: false, hintsRevealed: 0 } } });
      await page.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress);
      await page.goto(`${app.url}?host=bridge${link.hash}`);
      await page.getByText('Live host: Local bridge').waitFor({ timeout: limit(15_000) });
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      await page.evaluate(() => (location.hash = '#agent'));
      await page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });

      const questions: string[] = [];
      page.once('dialog', (dialog) => {
        questions.push(dialog.message());
        void dialog.dismiss();
      });
      const declined = await runSuite(page, 'server');
      expect(declined.status).toBe('error');
      expect(await page.getByTestId('sdk-error-server').textContent()).toContain('you chose not to run code from a share link or an imported file on the bridge host');
      expect(questions).toEqual([expect.stringContaining('came from a share link')]);

      page.once('dialog', (dialog) => {
        questions.push(dialog.message());
        void dialog.accept();
      });
      const accepted = await runSuite(page, 'server');
      expect(accepted.failures, opened.consoleLines.join('\n')).toEqual({});
      expect(accepted.summary).toBe('All 7 checks passed on the bridge host.');
      expect(questions).toHaveLength(2);
    } finally {
      await opened.close();
    }
  });
});

describe('code from an imported progress file', () => {
  it('Check my server asks the same before running it on the bridge; after a yes it is the learner\'s', async () => {
    const opened = await openPage(app.browser);
    const { page } = opened;
    try {
      const progress = JSON.stringify({ version: 1, exercises: { '03-client': { code: referenceClient, completed: false, hintsRevealed: 0 } } });
      await page.addInitScript((value) => localStorage.setItem('mcp-playground:progress', value), progress);
      await page.goto(`${app.url}?host=bridge`);
      await page.getByText('Live host: Local bridge').waitFor({ timeout: limit(15_000) });
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(15_000) });
      // Someone's progress file with an exercise 4 server, imported through the page's own button.
      const toggle = page.getByRole('button', { name: 'Titles and progress' });
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      const file = createProgressFile({ version: 1, exercises: { '04-server': { code: referenceServer, completed: false, hintsRevealed: 0 } } }, { appVersion: '0.1.0', exportedAt: new Date('2026-12-01T12:00:00Z') });
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import progress…' }).click()]);
      await chooser.setFiles({ name: 'from-someone.json', mimeType: 'application/json', buffer: Buffer.from(file) });
      const dialog = page.getByRole('dialog', { name: /Import progress from “from-someone.json”/ });
      await dialog.getByRole('button', { name: 'Merge' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.evaluate(() => (location.hash = '#agent'));
      await page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });

      const questions: string[] = [];
      page.once('dialog', (question) => {
        questions.push(question.message());
        void question.dismiss();
      });
      const declined = await runSuite(page, 'server');
      expect(declined.status).toBe('error');
      expect(await page.getByTestId('sdk-error-server').textContent()).toContain('you chose not to run code from a share link or an imported file on the bridge host');
      expect(questions).toEqual([expect.stringContaining('came from an imported progress file')]);

      page.once('dialog', (question) => {
        questions.push(question.message());
        void question.accept();
      });
      const accepted = await runSuite(page, 'server');
      expect(accepted.failures, opened.consoleLines.join('\n')).toEqual({});
      expect(accepted.summary).toBe('All 7 checks passed on the bridge host.');
      // Agreed once: the code is the learner's now, so a third run asks nothing.
      const again = await runSuite(page, 'server');
      expect(again.status).toBe('pass');
      expect(questions).toHaveLength(2);
    } finally {
      await opened.close();
    }
  });
});

describe('the SDK checks panel', () => {
  it('speaks Chinese and lists the hosts with what each can run', async () => {
    const opened = await openPage(app.browser, { locale: 'zh-CN' });
    try {
      await opened.page.goto(`${app.url}?host=worker#agent`);
      await opened.page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });
      await expect(opened.page.getByRole('heading', { name: '用官方 MCP SDK 检验' }).count()).resolves.toBe(1);
      await expect(opened.page.getByTestId('sdk-run-client').textContent()).resolves.toBe('检验我的客户端');
      const rows = opened.page.getByTestId('sdk-hosts').locator('tbody tr');
      await rows.first().waitFor();
      await expect(rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-host')))).resolves.toEqual(['webcontainer', 'bridge', 'worker']);
      await expect(opened.page.locator('[data-testid=sdk-hosts] tr[aria-current=true]').getAttribute('data-host')).resolves.toBe('worker');
    } finally {
      await opened.close();
    }
  });
});

describe('Check my client in the 2026-07-28 era (exercise 7)', () => {
  it("runs the learner's ModernSession inside the dual-era client against SDK 2.4.0's 2026-07-28-only server, in the worker host", async () => {
    const progress = JSON.stringify({ version: 1, exercises: { '07-stateless-era': { code: read('src/protocol/era/stateless-client.ts'), completed: false, hintsRevealed: 0 } } });
    const { page, consoleLines, close } = await openOnHost(app, 'worker', '#agent', (page) => page.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress));
    try {
      await page.getByTestId('sdk-checks').waitFor({ timeout: limit(15_000) });
      // By keyboard: focus the radio and choose it with Space.
      const code = page.getByTestId('client-check-code').getByRole('radio', { name: 'your dual-era client (exercise 7)' });
      await code.focus();
      await page.keyboard.press('Space');
      await expect(code.isChecked()).resolves.toBe(true);
      await page.getByTestId('client-check-server').getByRole('radio').nth(2).check();
      await expect(page.getByTestId('sdk-checks').textContent()).resolves.toContain('07-stateless-era · stateless-client.ts');
      const client = await runSuite(page, 'client');
      expect(client.failures, consoleLines.join('\n')).toEqual({});
      expect(client.checks).toEqual(['era-discover', 'list-tools', 'call-echo', 'era-unknown-tool', 'era-envelope', 'close'].map((id) => [id, 'pass']));
      expect(client.summary).toBe('All 6 checks passed on the worker host.');
    } finally {
      await close();
    }
  });
});
