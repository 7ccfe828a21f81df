// Issue 22's high finding, attacked in Chromium against the production build: code from a share
// link, run by pressing Run, tries every way to the playground's origin it found (CacheStorage,
// IndexedDB, the service worker, same-origin requests, workers and scripts from our URLs,
// BroadcastChannel and postMessage to the page, cookies and localStorage). Each must be refused in
// the sandbox frame's worker; the same code in a worker the page starts itself (same origin) must
// reach them, so the test fails if the sandbox ever stops being what refuses them.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_FRAME_CONTENT_SECURITY_POLICY } from '../../server/sandbox-document.ts';
import { encodeShareHash } from '../../src/exercise/share-link.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { openPage, useAppAndBrowser } from './browser.ts';
import { controlProbe, learnerProbe, PROBE_CHANNEL } from './sandbox-probe.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
const WAIT_MS = 120_000;

/** Two real files of the build: a worker that answers when it starts, and a module chunk. */
function buildAssets(): { worker: string; script: string } {
  const files = readdirSync(join(PROJECT_ROOT, 'dist', 'assets'));
  const worker = files.find((name) => /^spec-worker-[\w-]+\.js$/.test(name));
  const script = files.find((name) => /^common-[\w-]+\.js$/.test(name));
  if (!worker || !script) throw new Error('the build has no spec worker or common chunk');
  return { worker: `/assets/${worker}`, script: `/assets/${script}` };
}

type Outcomes = Record<string, string>;

describe('learner code runs on an opaque origin', () => {
  it('a share link’s code cannot reach the playground’s origin, and the same code in a same-origin worker can', { timeout: limit(300_000) }, async () => {
    const origin = new URL(app.url).origin;
    const assets = buildAssets();
    const shared = await encodeShareHash({ exerciseId: '04-server', code: learnerProbe(origin, assets) });
    if (!shared.ok) throw new Error(`share link: ${JSON.stringify(shared.problem)}`);
    const opened = await openPage(app.browser, { serviceWorker: true });
    const { page } = opened;
    try {
      // Everything that reaches the page's window or its BroadcastChannel, from the first byte.
      await page.addInitScript((channel) => {
        if (window !== window.top) return;
        const seen: unknown[] = [];
        (window as unknown as { probeSeen: unknown[] }).probeSeen = seen;
        window.addEventListener('message', (event) => seen.push({ via: 'window', data: event.data }));
        new BroadcastChannel(channel).onmessage = (event) => seen.push({ via: 'broadcast', data: event.data });
      }, PROBE_CHANNEL);
      // One visit first, so the service worker has precached the app (the attack's precondition).
      await page.goto(`${app.url}?host=worker#workspace`);
      await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: WAIT_MS });
      await page.getByRole('status', { name: 'Offline copy' }).getByText('Available offline').waitFor({ timeout: WAIT_MS });
      await page.goto(`${app.url}?host=worker${shared.hash}`);
      await page.getByTestId('scratch-banner').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: WAIT_MS });
      const status = page.getByTestId('run-status');
      const before = Number(await status.getAttribute('data-seq'));
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.waitForFunction(
        (previous) => {
          const element = document.querySelector('[data-testid="run-status"]');
          return element instanceof HTMLElement && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
        },
        before,
        { timeout: WAIT_MS },
      );
      const results = (await page.getByTestId('results').textContent()) ?? '';
      const reported = /PROBE (\{.*?\}) END/.exec(results)?.[1];
      expect(reported, results.slice(0, 2000)).toBeTruthy();
      const sandbox = JSON.parse(reported as string) as Outcomes;

      // The control: the very same attempts in a classic worker the page starts from a blob: URL,
      // on the playground's origin (under the page's own CSP).
      const control = await page.evaluate(
        (source) =>
          new Promise<Outcomes>((resolve) => {
            const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
            worker.onmessage = (event: MessageEvent) => {
              const data = event.data as { outcomes?: Outcomes };
              if (data.outcomes) resolve(data.outcomes);
            };
          }),
        controlProbe(origin, assets),
      );
      console.log('[measured] sandbox', JSON.stringify(sandbox), '\n[measured] control', JSON.stringify(control));

      const attacks = ['CacheStorage', 'IndexedDB', 'serviceWorker', 'fetch', 'XMLHttpRequest', 'Worker', 'importScripts', 'document.cookie', 'localStorage'];
      for (const name of attacks) expect(sandbox[name], name).toMatch(/^refused: /);
      // What a same-origin worker reaches (a worker has no document or localStorage at all: those
      // two are tried on the frame's document below, against the page's).
      for (const name of ['CacheStorage', 'IndexedDB', 'fetch', 'XMLHttpRequest', 'Worker', 'importScripts']) expect(control[name], name).toMatch(/^reached: /);
      // The precache itself (what the original attack read and overwrote) is there to be reached.
      expect(control.CacheStorage).not.toBe('reached: 0 caches');

      // BroadcastChannel and postMessage: the control's message reaches the page; by the time it
      // has, nothing from the sandbox has (it was sent first).
      await page.waitForFunction(() => (window as unknown as { probeSeen: { data: { from?: string } }[] }).probeSeen.some((entry) => entry.data?.from === 'control'), undefined, { timeout: WAIT_MS });
      const seen = await page.evaluate(() => JSON.stringify((window as unknown as { probeSeen: unknown[] }).probeSeen));
      expect(seen).not.toContain('sandbox');

      // The frame itself: sandboxed to scripts only by its own CSP, an opaque origin, no cookies, storage or
      // service worker (a dedicated worker has none of the three anyway); the page's document, the
      // control, has all three.
      const frame = page.frames().find((candidate) => candidate.url().includes('/sandbox/frame-'));
      expect(frame, 'the sandbox frame').toBeTruthy();
      // Out of sight but laid out: a `display: none` frame's process, and the workers that run the
      // tests, run at background priority in Chromium (Run → results ~1.6× slower in the bench).
      const box = await page.getByTestId('learner-sandbox-frame').evaluate((element) => {
        const style = getComputedStyle(element);
        const rect = element.getBoundingClientRect();
        return { display: style.display, visibility: style.visibility, opacity: style.opacity, pointerEvents: style.pointerEvents, width: rect.width, height: rect.height };
      });
      expect(box).toEqual({ display: 'block', visibility: 'visible', opacity: '0', pointerEvents: 'none', width: 1, height: 1 });
      const frameResponse = await fetch(frame?.url() ?? '');
      expect(frameResponse.headers.get('content-security-policy')).toBe(SANDBOX_FRAME_CONTENT_SECURITY_POLICY);
      const documentProbe = () => {
        const attempt = (run: () => unknown) => {
          try {
            return `reached: ${typeof run()}`;
          } catch (error) {
            return `refused: ${(error as Error).name}`;
          }
        };
        return {
          origin: globalThis.origin,
          cookie: attempt(() => document.cookie),
          localStorage: attempt(() => localStorage.getItem('x')),
          serviceWorker: attempt(() => navigator.serviceWorker.getRegistrations),
        };
      };
      expect(await frame?.evaluate(documentProbe)).toEqual({ origin: 'null', cookie: 'refused: SecurityError', localStorage: 'refused: SecurityError', serviceWorker: 'refused: SecurityError' });
      expect(await page.evaluate(documentProbe)).toEqual({ origin, cookie: 'reached: string', localStorage: 'reached: object', serviceWorker: 'reached: function' });
    } finally {
      await opened.close();
    }
  });

  it('when the sandbox frame cannot load, no code runs and the page says why', { timeout: limit(300_000) }, async () => {
    // The frame never loads here, so the page's 15 s start limit is shortened: the outcome is the same.
    const opened = await openPage(app.browser, { limits: { sandboxFrameStartMs: 1000 } });
    const { page } = opened;
    try {
      // As an extension or a proxy that blocks the frame would.
      await page.route(/\/sandbox\/frame-[0-9a-f]+\.html/, (route) => route.abort('blockedbyclient'));
      await page.goto(`${app.url}?host=worker#workspace`);
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: WAIT_MS });
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.waitForFunction(() => (document.querySelector('[data-testid="run-status"]') as HTMLElement | null)?.dataset.status === 'error', undefined, { timeout: WAIT_MS });
      expect(await page.getByTestId('run-error').textContent()).toContain('the sandbox that runs learner code did not load');
      expect(await page.getByTestId('sandbox-notice').textContent()).toContain('The sandbox that runs your code could not load');
    } finally {
      await opened.close();
    }
  });

  it('a frame served without its sandbox directive (a host that cannot send it) runs nothing itself: the page opens it again with the sandbox attribute, still opaque', { timeout: limit(300_000) }, async () => {
    const opened = await openPage(app.browser);
    const { page } = opened;
    try {
      // The real document, on the playground's own origin: only the CSP header is missing.
      const served: string[] = [];
      await page.route(/\/sandbox\/frame-[0-9a-f]+\.html/, async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['content-security-policy'];
        served.push(route.request().url());
        await route.fulfill({ response, headers });
      });
      await page.goto(`${app.url}?host=worker#workspace`);
      await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: WAIT_MS });
      const status = page.getByTestId('run-status');
      const before = Number(await status.getAttribute('data-seq'));
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.waitForFunction(
        (previous) => {
          const element = document.querySelector('[data-testid="run-status"]');
          return element instanceof HTMLElement && Number(element.dataset.seq) > previous && ['pass', 'fail', 'error'].includes(element.dataset.status ?? '');
        },
        before,
        { timeout: WAIT_MS },
      );
      // The starter ran (and failed its spec) in the second frame, the one with the attribute.
      expect(await status.getAttribute('data-status')).toBe('fail');
      expect(served.length).toBe(2);
      const frames = page.getByTestId('learner-sandbox-frame');
      expect(await frames.count()).toBe(1);
      expect(await frames.getAttribute('sandbox')).toBe('allow-scripts');
      const frame = page.frames().find((candidate) => candidate.url().includes('/sandbox/frame-'));
      expect(await frame?.evaluate(() => globalThis.origin)).toBe('null');
      expect(await page.getByTestId('sandbox-notice').count()).toBe(0);
    } finally {
      await opened.close();
    }
  });
});
