// The authorization scene in real Chromium on the bridge: mcp-http --auth=self (oidc-provider beside
// it), the page as client, browser and person. English at 1280×720: the sign-in step by step to the
// consent page, Allow from the keyboard, the flow to its end; PKCE's relation, the redirect's state
// and iss and the token's claims as the page reads them; secrets hidden in the inspector until shown.
// Each failure card's symptom; then Chinese at 1024×768: Deny, and access_denied back. Exercise 8 on the
// path: its starter fails, and driving the scene with it stops at the first step it leaves undone;
// with the reference in the editor, the scene signs in with the learner's steps. On the worker host,
// where no Node process runs, the scene says so and opens the sign-in recorded on the bridge.

import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { HOST_NAMES, openPage, useAppAndBrowser, type HostKind } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
const SHOTS = process.env.AUTH_SCENE_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

async function open(host: HostKind, options: { locale?: string; width: number; height: number }) {
  const opened = await openPage(app.browser, { locale: options.locale ?? 'en-US' });
  await opened.page.setViewportSize({ width: options.width, height: options.height });
  await opened.page.goto(`${app.url}?host=${host}#protocol/scene/http-auth`);
  await opened.page.getByTestId('auth-scene').waitFor();
  return opened;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const status = (page: Page) => page.getByTestId('auth-scene').getAttribute('data-status');
async function waitForStatus(page: Page, wanted: string, ms = 60_000): Promise<void> {
  await page.waitForFunction((wanted) => document.querySelector('[data-testid=auth-scene]')?.getAttribute('data-status') === wanted, wanted, { timeout: limit(ms) });
}
async function rows(page: Page): Promise<string[]> {
  return page.getByTestId('auth-row').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-kind')} ${node.getAttribute('data-status')}`));
}

describe('the authorization scene', () => {
  it.concurrent("signs in step by step on the bridge, the learner allowing on the consent page (English, 1280×720); exercise 8's starter stops it at its first step, its reference signs in", async () => {
    const { page, close, consoleLines } = await open('bridge', { width: 1280, height: 720 });
    try {
      await page.getByText(`Live host: ${HOST_NAMES.bridge}`).waitFor({ timeout: limit(15_000) });
      expect(await page.getByRole('radio', { name: 'HTTP · sign in (OAuth)' }).isChecked()).toBe(true);
      await shot(page, 'en-1280-idle');
      await page.getByTestId('auth-step').click();
      await page.waitForFunction(() => document.querySelector('[data-testid=auth-row]')?.getAttribute('data-status') === '401', undefined, { timeout: limit(30_000) });
      expect(await rows(page)).toEqual(['mcp 401']);
      // → steps, as in the other steppers.
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=auth-row]')[1]?.getAttribute('data-status') === '200', undefined, { timeout: limit(30_000) });
      await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
      await waitForStatus(page, 'consent');
      expect(await rows(page)).toEqual(['mcp 401', 'resource-metadata 200', 'server-metadata 200', 'registration 201', 'authorization 303', 'browser 303', 'browser 303', 'browser 200']);
      const frame = page.frameLocator('iframe.auth-consent__page');
      await frame.getByText('MCP Playground', { exact: true }).waitFor({ timeout: limit(10_000) });
      // Allow has the focus: Enter is the person's click.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('auth-allow');
      await shot(page, 'en-1280-consent');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
      await waitForStatus(page, 'done');
      expect((await rows(page)).slice(8)).toEqual(['consent 303', 'browser 303', 'token 200', 'mcp 200', 'mcp 202', 'mcp 200']);
      expect(await page.getByTestId('auth-outcome').getAttribute('data-ok')).toBe('true');
      expect(await page.getByTestId('auth-pkce-relation').getAttribute('data-matches')).toBe('true');
      expect(await page.getByTestId('auth-iss').textContent()).toContain('✓');
      expect(await page.getByTestId('auth-claims').locator('[data-claim]').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-claim')} ${node.getAttribute('data-verdict')}`))).toEqual([
        'aud ok',
        'iss ok',
        'exp ok',
        'scope ok',
      ]);
      await shot(page, 'en-1280-done');
      await expectAccessible(page, 'the authorization scene', { include: '[data-testid=auth-scene] .stepper__body' });

      // The token response in the inspector: the token hidden (same length), then shown.
      await page.locator('[data-testid=auth-row][data-kind=token] button').click();
      const response = page.getByTestId('http-response');
      await response.waitFor();
      const hiddenText = Buffer.from((await response.getAttribute('data-b64')) ?? '', 'base64').toString('latin1');
      expect(hiddenText).toMatch(/"access_token":"\*{100,}"/);
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await page.getByTestId('auth-reveal').check();
      await page.locator('[data-testid=auth-row][data-kind=token] button').click();
      const shownText = Buffer.from((await page.getByTestId('http-response').getAttribute('data-b64')) ?? '', 'base64').toString('latin1');
      expect(shownText.length).toBe(hiddenText.length);
      expect(shownText).toMatch(/"access_token":"eyJ[\w-]+\.[\w-]+\.[\w-]+"/);
      await page.getByRole('button', { name: 'Close', exact: true }).click();

      // Exercise 8 on the path (moving by the address, no reload): its starter fails, and driving the scene with it stops at its first step.
      await page.evaluate((hash) => { location.hash = hash; }, '#workspace');
      await page.getByTestId('exercise-08-authorization').click();
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      const run = async (expected: 'fail') => {
        const status = page.getByTestId('run-status');
        const before = Number((await status.count()) > 0 ? await status.getAttribute('data-seq') : 0);
        await page.getByRole('button', { name: 'Run tests', exact: true }).click();
        await page.waitForFunction(
          (previous) => {
            const element = document.querySelector<HTMLElement>('[data-testid="run-status"]');
            return element !== null && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
          },
          before,
          { timeout: limit(60_000) },
        );
        const failed = await page.locator('[data-testid=test-result][data-status=fail]').allTextContents();
        expect(await status.getAttribute('data-status'), `${(await status.textContent()) ?? ''} ${failed.join(' | ').slice(0, 1500)}`).toBe(expected);
      };
      await run('fail');
      // The scene with the starter: the first step it leaves undone stops the flow, by name and line.
      await page.evaluate((hash) => { location.hash = hash; }, '#protocol/scene/http-auth/yours');
      await page.getByTestId('auth-scene').waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid=auth-driver]')?.classList.contains('is-learner') === true);
      await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
      await waitForStatus(page, 'done', 90_000);
      expect(await page.getByTestId('auth-outcome').textContent()).toMatch(/your protectedResourceMetadataUrls \(authorization-client\.ts:\d+\)/);
      expect(await rows(page)).toEqual(['mcp 401']);

      // The reference in the editor (Solve → Use the reference; path-walk.test.ts runs it green on
      // the path), then the scene again: the sign-in with the learner's steps.
      await page.evaluate((hash) => { location.hash = hash; }, '#workspace');
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      await page.getByRole('button', { name: 'Solve', exact: true }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('button')].some((button) => button.textContent === 'Use the reference' && !button.disabled));
      await page.getByRole('button', { name: 'Use the reference', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Replace my code', exact: true }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.evaluate((hash) => { location.hash = hash; }, '#protocol/scene/http-auth/yours');
      await page.getByTestId('auth-scene').waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid=auth-driver]')?.classList.contains('is-learner') === true);
      await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
      await waitForStatus(page, 'consent', 90_000);
      await page.getByTestId('auth-allow').click();
      await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
      await waitForStatus(page, 'done', 90_000);
      expect(await page.getByTestId('auth-outcome').getAttribute('data-ok')).toBe('true');
      expect(Number(await page.getByTestId('auth-yours').getAttribute('data-count'))).toBeGreaterThanOrEqual(7);
      expect(await page.getByTestId('auth-pkce-relation').getAttribute('data-matches')).toBe('true');
      await shot(page, 'en-1280-yours-done');
    } catch (error) {
      throw new Error(`${String(error)}\n${consoleLines.join('\n')}`);
    } finally {
      await close();
    }
  }, 360_000);

  it.concurrent("each failure card shows its symptom, read from the wire's bytes; then, in Chinese at 1024×768, Deny sends the person back with access_denied", async () => {
    const { page, close } = await open('bridge', { width: 1280, height: 720 });
    try {
      await page.getByText(`Live host: ${HOST_NAMES.bridge}`).waitFor({ timeout: limit(15_000) });
      await page.getByTestId('auth-cards-details').locator('summary').click();
      const runCard = async (card: string) => {
        await page.locator(`[data-testid=auth-card][data-card=${card}] button`).click();
        await page.waitForFunction((card) => document.querySelector('[data-testid=auth-scene]')?.getAttribute('data-card') === card, card);
        await waitForStatus(page, 'done', 90_000);
        return rows(page);
      };
      const audience = await runCard('audience');
      expect(audience.slice(-1)).toEqual(['mcp 401']);
      expect(await page.locator('[data-claim=aud]').getAttribute('data-verdict')).toBe('another-audience');
      expect(await page.getByTestId('auth-outcome').getAttribute('data-ok')).toBe('false');
      await shot(page, 'en-1280-card-audience');

      const noPkce = await runCard('no-pkce');
      expect(noPkce.some((row) => row.startsWith('token'))).toBe(false);
      expect(await page.getByTestId('auth-redirect').textContent()).toContain('invalid_request');
      expect(await page.getByTestId('auth-outcome').textContent()).toMatch(/PKCE/i);

      const stepUp = await runCard('step-up');
      // The call meets 403, the step-up signs in again, and the same call goes through.
      expect(stepUp.filter((row) => row.startsWith('mcp')).slice(-2)).toEqual(['mcp 403', 'mcp 200']);
      expect(stepUp.filter((row) => row.startsWith('token'))).toEqual(['token 200', 'token 200']);
      expect(await page.getByTestId('auth-outcome').getAttribute('data-ok')).toBe('true');

      const mixUp = await runCard('mix-up');
      expect(mixUp.some((row) => row.startsWith('token'))).toBe(false);
      expect(await page.getByTestId('auth-iss').textContent()).toContain('✗');
      expect(await page.getByTestId('auth-outcome').getAttribute('data-ok')).toBe('false');

      const deputy = await runCard('deputy');
      expect(deputy.at(-1)).toBe('passed-on 401');
      await shot(page, 'en-1280-card-deputy');
      expect(await status(page)).toBe('done');

      // Back to the plain sign-in, in Chinese at 1024×768 (switched in the header, as a learner
      // would): the consent page answers in Chinese, and Deny sends the person back with access_denied.
      await page.getByRole('button', { name: '中文', exact: true }).click();
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.getByRole('button', { name: '回到正常的登录', exact: true }).click();
      await page.getByTestId('auth-scene').scrollIntoViewIfNeeded();
      expect(await page.getByRole('radio', { name: 'HTTP · 登录（OAuth）' }).isChecked()).toBe(true);
      await page.getByRole('button', { name: '运行到底 ▶▶', exact: true }).click();
      await waitForStatus(page, 'consent');
      await page.frameLocator('iframe.auth-consent__page').getByRole('heading', { level: 1 }).filter({ hasText: /[\u4e00-\u9fff]/ }).waitFor({ timeout: limit(10_000) });
      await shot(page, 'zh-1024-consent');
      await page.getByRole('button', { name: '拒绝', exact: true }).click();
      await page.getByRole('button', { name: '运行到底 ▶▶', exact: true }).click();
      await waitForStatus(page, 'done');
      expect(await page.getByTestId('auth-redirect').textContent()).toContain('access_denied');
      expect(await page.getByTestId('auth-outcome').getAttribute('data-ok')).toBe('false');
      await shot(page, 'zh-1024-denied');
    } finally {
      await close();
    }
  }, 300_000);

  it.concurrent('on the worker host the scene says it needs Node, and opens the sign-in recorded on the bridge in the Trace view', async () => {
    const { page, close } = await open('worker', { width: 1280, height: 720 });
    try {
      await page.getByText(`Live host: ${HOST_NAMES.worker}`).waitFor({ timeout: limit(15_000) });
      await page.getByTestId('auth-worker-note').waitFor();
      expect(await page.getByTestId('auth-worker-note').textContent()).toContain('needs Node');
      await shot(page, 'en-1280-worker');
      await page.getByTestId('auth-open-recorded').click();
      await page.waitForFunction(() => location.hash.startsWith('#trace='));
      // The recorded sign-in as the trace view reads any HTTP trace: its messages, from the 401'd initialize to the echo.
      await page.getByTestId('trace-summary').waitFor({ timeout: limit(15_000) });
      const rows = page.getByRole('list', { name: 'Message log (trace)', exact: true }).getByRole('listitem');
      const texts = (await rows.allTextContents()).join('\n');
      for (const message of ['initialize #0', 'HTTP: GET /.well-known/oauth-protected-resource/mcp HTTP/1.1', 'HTTP: HTTP/1.1 201 Created']) expect(texts).toContain(message);
      // OAuth's JSON documents are HTTP messages, not broken JSON-RPC.
      expect(texts).not.toContain('Invalid JSON-RPC');
      expect(await page.getByTestId('trace-summary').textContent()).toContain('mcp-http --auth=self');
      await shot(page, 'en-1280-worker-trace');
    } finally {
      await close();
    }
  }, 120_000);

});
