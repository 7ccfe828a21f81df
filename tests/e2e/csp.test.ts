// The page's Content-Security-Policy in real Chromium against the production build: the policy is
// sent with the page, and the app, Monaco (with its workers) and our own workers (the spec worker
// evaluates the learner's code; the worker host runs the echo server) all work under it without a
// single violation. A policy that blocked any of them would show up here first.

import { describe, expect, it } from 'vitest';
import { SANDBOX_FRAME_CONTENT_SECURITY_POLICY } from '../../server/sandbox-document.ts';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY, WORKER_CONTENT_SECURITY_POLICY } from '../../server/security-headers.ts';
import { openPage, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

describe('Content-Security-Policy', () => {
  it('the page, the editor, a spec run and the live worker host run with no violation', async () => {
    const opened = await openPage(app.browser);
    const { page } = opened;
    try {
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
      });
      // Every script the app loads, workers included, carries a policy of its own.
      const scripts: { url: string; csp: string | undefined }[] = [];
      page.on('response', (answer) => {
        if (/\.m?js$/.test(new URL(answer.url()).pathname)) scripts.push({ url: answer.url(), csp: answer.headers()['content-security-policy'] });
      });
      const response = await page.goto(`${app.url}?host=worker#workspace`);
      const headers = response?.headers() ?? {};
      expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['permissions-policy']).toBe(PERMISSIONS_POLICY);

      // Monaco and its workers.
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      // A spec run: the learner's code through `new Function` in the spec worker.
      const status = page.getByTestId('run-status');
      const before = Number(await status.getAttribute('data-seq'));
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+Enter');
      await page.waitForFunction((previous) => Number((document.querySelector('[data-testid="run-status"]') as HTMLElement | null)?.dataset.seq) > previous, before, { timeout: limit(20_000) });
      // The live panel's echo server in its worker.
      await page.getByText('Live host: In-browser worker').waitFor({ timeout: limit(15_000) });
      // The other views load their chunks: each is shown. (Not 'networkidle': since no route
      // intercepts the page's requests, Playwright's idle wait hung for its whole limit in a run.)
      const shownBy: Record<string, string> = { '#protocol': '[data-testid="scene-chooser"]', '#preflight': 'section.preflight', '#agent': '[data-testid="sdk-checks"]' };
      for (const [hash, selector] of Object.entries(shownBy)) {
        await page.evaluate((next) => (location.hash = next), hash);
        await page.locator(selector).waitFor({ timeout: limit(15_000) });
      }

      expect(scripts.length).toBeGreaterThan(10);
      expect(scripts.filter((script) => !script.csp)).toEqual([]);

      const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
      const refused = opened.consoleLines.filter((line) => /Content Security Policy|Refused to/i.test(line));
      expect({ violations, refused }).toEqual({ violations: [], refused: [] });
    } finally {
      await opened.close();
    }
  });

  it("learner code in the spec worker cannot reach the network: not the page (and its bridge token), not the bridge", async () => {
    // Module-level code of the learner's exercise 1 file: a synchronous request for the bridge
    // token, asked for the way the page asks (GET /__bridge/token). Whatever happens it throws, and the run's error says what. (A
    // WebSocket is blocked by the same connect-src, but only asynchronously, and without the token
    // the bridge refuses it anyway: tests/security/bridge-probe.test.ts.)
    const attack = `const x = new globalThis.XMLHttpRequest();
let outcome;
try { x.open('GET', '/__bridge/token', false); x.setRequestHeader('X-MCP-Bridge-Token-Request', '1'); x.send(); outcome = 'LEAKED page ' + x.status + ' ' + x.responseText; } catch (e) { outcome = 'blocked page: ' + e.name; }
throw new Error('ATTACK ' + outcome);
`;
    const progress = JSON.stringify({ version: 1, exercises: { '01-jsonrpc': { code: attack, completed: false, hintsRevealed: 0 } } });
    const opened = await openPage(app.browser);
    const { page } = opened;
    try {
      await page.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress);
      await page.goto(`${app.url}?host=worker#workspace`);
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: limit(20_000) });
      await page.getByTestId('code-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+Enter');
      await page.waitForFunction(() => (document.querySelector('[data-testid="run-status"]') as HTMLElement | null)?.dataset.status === 'error', undefined, { timeout: limit(20_000) });
      const message = (await page.getByTestId('run-error').textContent()) ?? '';
      expect(message).toContain('ATTACK blocked page');
      expect(message).not.toContain('LEAKED');
      // The sandbox frame's policy, which its blob: workers inherit, is what blocked it (the worker
      // script's own policy says the same, for a worker anyone starts from its URL).
      const frameUrl = page.frames().find((frame) => frame.url().includes('/sandbox/frame-'))?.url();
      expect(frameUrl).toBeTruthy();
      expect((await fetch(frameUrl as string)).headers.get('content-security-policy')).toBe(SANDBOX_FRAME_CONTENT_SECURITY_POLICY);
      expect(SANDBOX_FRAME_CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
      const workerScript = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).find((name) => /spec-worker-[^/]+\.js$/.test(name)));
      expect(workerScript).toBeTruthy();
      const response = await fetch(workerScript as string);
      expect(response.headers.get('content-security-policy')).toBe(WORKER_CONTENT_SECURITY_POLICY);
    } finally {
      await opened.close();
    }
  });

  it('another site cannot frame the page', async () => {
    const opened = await openPage(app.browser);
    try {
      // A page of another origin (about:blank's opaque origin counts) tries to frame ours.
      await opened.page.setContent('<iframe id="victim"></iframe>');
      await opened.page.evaluate(
        (url) =>
          new Promise<void>((loaded) => {
            const frame = document.getElementById('victim') as HTMLIFrameElement;
            frame.onload = () => loaded();
            frame.src = url;
          }),
        app.url,
      );
      const frame = await (await opened.page.$('#victim'))?.contentFrame();
      // A blocked frame holds Chrome's error page: the app never renders in it.
      const rendered = frame ? await frame.evaluate(() => document.querySelector('#root')?.childElementCount ?? 0).catch(() => 0) : 0;
      expect(rendered).toBe(0);
      expect(opened.consoleLines.join('\n')).toMatch(/frame-ancestors|X-Frame-Options/);
    } finally {
      await opened.close();
    }
  });
});
