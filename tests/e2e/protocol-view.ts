// The protocol view in real Chromium against the production build, on the local bridge and on the
// in-browser worker: the handshake stepped through arrow by arrow (each drawn only after its bytes),
// step back and deep links, the byte inspector (你好 is 6 bytes; chunk boundaries under
// split-writes; hover linking both ways), every failure card with the reference code, and the
// learner's own client driving the stepper from a worker.
//
// One file per host (protocol-view-bridge.test.ts, protocol-view-worker.test.ts, and the worker's
// failure lab in failure-lab-worker.test.ts) so the longest runs of the e2e suite go to different
// workers and run side by side.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { HOST_NAMES, openOnHost, type AppAndBrowser, type HostKind, type TestPage } from './browser.ts';
import { limit } from './limits.ts';


const HANDSHAKE_ARROWS = [
  'client → server: initialize #0',
  'server → client: result of initialize #0',
  'client → server: notifications/initialized',
  'client → server: tools/list #1',
  'server → client: result of tools/list #1',
  'client → server: tools/call #2',
  'server → client: result of tools/call #2',
  'client → server: stdin EOF',
  'server → client: exit code 0',
];

/**
 * Opens pages in the test file's own browser: each file calls useAppAndBrowser() once and hands it
 * to the suites below (files share this module: isolate is false in vitest.config.ts).
 */
const opener = (app: AppAndBrowser) => (host: HostKind, hash = '#protocol', beforeLoad?: (page: Page) => Promise<unknown>): Promise<TestPage> => openOnHost(app, host, hash, beforeLoad);

const stepButton = (page: Page) => page.getByRole('button', { name: 'Step ▶', exact: true });
const arrows = (page: Page) => page.getByTestId('diagram-arrow');
const logRows = (page: Page) => page.getByRole('list', { name: 'Message log' }).getByRole('listitem');

/** Wait until the stepper shows `count` steps and is not in the middle of one. */
async function shown(page: Page, count: number, total = 9): Promise<void> {
  await page.waitForFunction(
    ([n, of]) =>
      document.querySelector('[data-testid=stepper-progress]')?.textContent === `Step ${n} of ${of}` &&
      ['idle', 'ready', 'done', 'failed'].includes(document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') ?? ''),
    [count, total] as const,
    { timeout: limit(20_000) },
  );
}

/** The arrows as their accessible names say them ("client → server: initialize #0, 193 B"), without the byte counts. */
async function arrowNames(page: Page): Promise<string[]> {
  return (await arrows(page).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''))).map((name) => name.replace(/, \d+ B.*$/, ''));
}

async function expectDrawnAfterArrival(page: Page): Promise<void> {
  const times = await arrows(page).evaluateAll((nodes) => nodes.map((node) => [Number(node.getAttribute('data-arrived-at')), Number(node.getAttribute('data-drawn-at'))]));
  expect(times.length).toBeGreaterThan(0);
  for (const [arrived, drawn] of times) expect(drawn).toBeGreaterThanOrEqual(arrived!);
}

async function runToEnd(page: Page, total = 9): Promise<void> {
  await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
  await shown(page, total, total);
}

/**
 * Colour is never the only cue in the byte view: each field of the open frame has its own
 * underline style, and the legend names them.
 */
async function expectFieldsNotByColourAlone(page: Page): Promise<void> {
  // For every field class shown in the hex bytes: its decoration (line + style) as rendered.
  const cues = await page.getByTestId('byte-inspector').evaluate((inspector) => {
    const byField = new Map<string, string>();
    for (const byte of inspector.querySelectorAll<HTMLElement>('.hex-bytes [data-i]')) {
      const field = [...byte.classList].find((name) => name.startsWith('f-'));
      if (!field || byField.has(field)) continue;
      const style = getComputedStyle(byte);
      byField.set(field, `${style.textDecorationLine} ${style.textDecorationStyle}`);
    }
    return Object.fromEntries(byField);
  });
  const fields = Object.keys(cues);
  // A Content-Length frame: header name, header value, line ends, separator, body at least.
  expect(fields.length, JSON.stringify(cues)).toBeGreaterThanOrEqual(4);
  expect(new Set(Object.values(cues)).size, JSON.stringify(cues)).toBe(fields.length);
  // The legend says in words what each style means.
  expect(await page.locator('.field-legend__item').count()).toBeGreaterThanOrEqual(fields.length);
}

async function openArrow(page: Page, label: string): Promise<void> {
  await arrows(page).filter({ has: page.locator(`text="${label}"`) }).first().click();
  await page.getByTestId('byte-inspector').waitFor();
}

/** Every protocol-view test on one host; call it once, at the top level of a test file. */
export function protocolViewTests(host: HostKind, app: AppAndBrowser): void {
  const open = opener(app);
  describe(`the protocol view on the ${HOST_NAMES[host]} host`, () => {
    it('steps through the whole handshake, drawing each arrow only after its bytes, and steps back without sending', async () => {
      const { page, close, consoleLines } = await open(host);
      try {
        await shown(page, 0);
        expect(await arrows(page).count()).toBe(0);

        await stepButton(page).click();
        await shown(page, 1);
        expect(await arrowNames(page)).toEqual(HANDSHAKE_ARROWS.slice(0, 1));
        // The server has answered (its bytes wait in the pipe), yet no response arrow is drawn.
        await page.getByTestId('held-bytes').waitFor({ timeout: limit(10_000) });
        expect(await logRows(page).filter({ hasText: 'response to initialize #0' }).count()).toBe(1);
        expect(await arrows(page).count()).toBe(1);

        for (let step = 2; step <= 9; step++) {
          await stepButton(page).click();
          await shown(page, step);
          expect(await arrowNames(page)).toEqual(HANDSHAKE_ARROWS.slice(0, step));
          await expectDrawnAfterArrival(page);
          if (step === 3 && host === 'worker') await expectAccessible(page, 'the protocol view after three steps');
        }
        expect(await page.getByTestId('state-machine-current').getAttribute('data-state')).toBe('closed');
        expect(await page.getByTestId('pending-table').locator('tbody').evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-id')} ${row.getAttribute('data-status')} ${row.getAttribute('data-order')}`))).toEqual([
          '0 answered 1',
          '1 answered 2',
          '2 answered 3',
        ]);

        // Back twice and forward twice: the diagram is redrawn from the log; stdin sees nothing new.
        const logged = await logRows(page).count();
        await page.getByRole('button', { name: '◀ Step back' }).click();
        await page.getByRole('button', { name: '◀ Step back' }).click();
        await shown(page, 7);
        expect(await arrowNames(page)).toEqual(HANDSHAKE_ARROWS.slice(0, 7));
        expect(await page.getByTestId('state-machine-current').getAttribute('data-state')).toBe('ready');
        // Keys work on the diagram too.
        await page.locator('.stepper__diagram').focus();
        await page.keyboard.press('ArrowRight');
        await shown(page, 8);
        await page.keyboard.press('Space');
        await shown(page, 9);
        expect(await arrowNames(page)).toEqual(HANDSHAKE_ARROWS);
        expect(await logRows(page).count()).toBe(logged);
        // Each step announces itself to screen readers, and the address names the step shown.
        expect(await page.getByTestId('stepper-announcer').textContent()).toContain('Step 9 of 9: the server exits');
        expect(new URL(page.url()).hash).toBe('#protocol/step/9');

        if (host === 'worker') {
          // The last frame the server sent (the exit arrow after it has no bytes to inspect).
          await page.locator('[data-testid="diagram-arrow"][role="button"]').last().click();
          await page.getByTestId('byte-inspector').waitFor();
          await expectFieldsNotByColourAlone(page);
          await expectAccessible(page, 'the byte inspector open on a frame');
        }
        expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
      } finally {
        await close();
      }
    });

    it('opens at a deep-linked step by stepping there live', async () => {
      const { page, close } = await open(host, '#protocol/step/4');
      try {
        await shown(page, 4);
        expect(await arrowNames(page)).toEqual(HANDSHAKE_ARROWS.slice(0, 4));
        expect(await page.getByTestId('state-machine-current').getAttribute('data-state')).toBe('ready');
      } finally {
        await close();
      }
    });

    it('inspects a frame: 你好 is 6 bytes, chunk boundaries as read under split-writes, hover links fields and bytes', async () => {
      const { page, close } = await open(host);
      try {
        await page.getByRole('checkbox', { name: /^split-writes/ }).check();
        await runToEnd(page);
        // The inspector's code loads when a frame is first inspected: when it cannot (offline,
        // no saved copy) the dialog says so, and the next inspection tries again.
        const inspectorCode = /\/assets\/ByteInspector-[^/]+\.js$/;
        await page.route(inspectorCode, (route) => route.abort('internetdisconnected'));
        await arrows(page).filter({ has: page.locator('text="result of tools/call #2"') }).first().click();
        await page.getByRole('dialog').getByRole('alert').filter({ hasText: 'The byte inspector could not be loaded' }).waitFor();
        await page.getByRole('button', { name: 'Close', exact: true }).click();
        await page.unroute(inspectorCode);
        await openArrow(page, 'result of tools/call #2');
        const inspector = page.getByTestId('byte-inspector');

        // Seen, not told: the counts and the bytes of each character.
        const multibyte = page.getByTestId('multibyte');
        expect(await multibyte.locator('[data-run="你好"] strong').textContent()).toBe('你好: 6 bytes, 2 UTF-16 units');
        expect(await multibyte.textContent()).toContain('你 = e4 bd a0 (U+4F60)');
        const counts = (await page.getByTestId('byte-counts').textContent()) ?? '';
        const declared = Number(/Content-Length says(\d+)/.exec(counts)?.[1]);
        expect(counts).toContain(`body bytes counted${declared} (✓ agree)`);

        // The chunks: they tile the frame, each is marked on the bytes, and they are exactly the
        // chunks the message log saw arrive (the tap's record of the pipe). The worker reports each
        // of the server's writes on its own; a real pipe (the bridge) may merge them.
        const frameLength = await inspector.locator('.hex-bytes [data-i]').count();
        const spans = await page.getByTestId('chunk-list').locator('li').evaluateAll((items) =>
          items.map((item) => ({ start: Number(item.getAttribute('data-chunk-start')), length: Number(item.getAttribute('data-chunk-length')), size: Number(item.getAttribute('data-chunk-size')) })),
        );
        if (host === 'worker') expect(spans.length).toBeGreaterThan(3);
        let next = 0;
        for (const span of spans) {
          expect(span.start).toBe(next);
          next += span.length;
        }
        expect(next).toBe(frameLength);
        expect(await inspector.locator('.hex-bytes .chunk-start').count()).toBe(spans.length);
        const logged = (await everyLogRowText(page, '.log-entry--s2c .log-entry__bytes')).map((text) => Number.parseInt(text, 10));
        expect(`,${logged.join(',')},`).toContain(`,${spans.map((span) => span.size).join(',')},`);

        // The replay feeds them one at a time: the reader holds bytes until the last push emits the message.
        const replay = page.getByTestId('replay-steps').locator('> li');
        expect(await replay.count()).toBe(1);
        if (spans.length > 1) await page.getByRole('button', { name: 'All pushes' }).click();
        expect(await replay.count()).toBe(spans.length);
        if (spans.length > 1) expect(await replay.first().textContent()).toContain('nothing yet');
        expect(await replay.last().textContent()).toContain('message response #2');

        // Field → bytes: the echo text lights its key and value bytes.
        const textPath = JSON.stringify(['result', 'content', 0, 'text']);
        await inspector.locator(`.json-row[data-path='${textPath}']`).hover();
        const expectedLit = new TextEncoder().encode(`"text":${JSON.stringify('你好, MCP 👋')}`).length;
        expect(await inspector.locator('.hex-bytes .is-lit').count()).toBe(expectedLit);
        // Bytes → field: the lead byte of 你 lights the text field and says which character it is.
        const ni = await inspector.locator('.hex-bytes [title^="你 = e4 bd a0"]').getAttribute('data-i');
        await inspector.locator(`.hex-bytes [data-i="${ni}"]`).hover();
        expect(await inspector.locator(`.json-row[data-path='${textPath}']`).getAttribute('class')).toContain('is-lit');
        expect(await page.getByTestId('byte-cursor').textContent()).toContain('part of 你 (U+4F60)');

        await page.getByRole('button', { name: 'Close', exact: true }).click();
        expect(await page.getByTestId('byte-inspector').count()).toBe(0);

        // The message log opens the same inspector for its frames.
        const row = logRows(page).filter({ hasText: 'response to tools/call #2' }).first();
        await row.getByRole('button').first().click();
        await row.getByTestId('log-inspect').first().click();
        expect(await page.getByTestId('multibyte').locator('[data-run="你好"] strong').textContent()).toBe('你好: 6 bytes, 2 UTF-16 units');
      } finally {
        await close();
      }
    });

    it("lets the learner's own client drive the stepper, and shows where the starter throws", async () => {
      const reference = readFileSync(join(import.meta.dirname, '../../src/protocol/client.ts'), 'utf8');
      const progress = JSON.stringify({ version: 1, exercises: { '03-client': { code: reference, completed: false, hintsRevealed: 0 } } });
      const { page, close } = await open(host, '#protocol', (target) => target.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress));
      try {
        await page.getByRole('radio', { name: 'Your client (exercise 3)' }).check();
        expect(await page.getByTestId('stepper-driver').textContent()).toContain('Driving: your client from exercise 3');
        await runToEnd(page);
        expect(await arrowNames(page)).toEqual(HANDSHAKE_ARROWS);
        await expectDrawnAfterArrival(page);
        expect(await page.getByTestId('state-machine-current').getAttribute('data-state')).toBe('closed');
        expect(await page.getByTestId('stepper-status').getAttribute('data-status')).toBe('done');
      } finally {
        await close();
      }

      const starter = await open(host);
      try {
        await starter.page.getByRole('radio', { name: 'Your client (exercise 3)' }).check();
        // Before it runs, the page says whose code this is and that it does not pass yet, with the way back.
        const unfinished = starter.page.getByTestId('unfinished-exercise');
        expect(await unfinished.textContent()).toContain('exercise 3');
        expect(await unfinished.getByRole('link').getAttribute('href')).toBe('#exercise=03-client');
        await stepButton(starter.page).click();
        await shown(starter.page, 1);
        const note = starter.page.getByTestId('diagram-note').first();
        expect(await note.getAttribute('data-kind')).toBe('threw');
        expect(await note.getAttribute('aria-label')).toMatch(/^Threw: initialize\(\): Error: TODO: initialize\(\) \(line \d+\)$/);
        expect(await arrows(starter.page).count()).toBe(0);
      } finally {
        await starter.close();
      }
    });
  });
}

/**
 * The failure lab on one host: every card run with the reference code. The longest single test
 * on the worker host, so it can have a file of its own there.
 */
export function failureLabTests(host: HostKind, app: AppAndBrowser): void {
  const open = opener(app);
  describe(`the failure lab on the ${HOST_NAMES[host]} host`, () => {
    it('runs every failure card with the reference code and shows its symptom', async () => {
      const { page, close } = await open(host);
      try {
        // The lab is a collapsed section under the stepper (a stdio scene's).
        await page.getByTestId('more-lab').locator('summary').click();
        const expected: Record<string, [string, string]> = {
          'frame-boundaries': ['copes', 'split-joined'],
          'id-pairing': ['copes', 'out-of-order'],
          'init-order': ['fails-loudly', 'refused-locally'],
          'error-layering': ['fails-loudly', 'rpc-error'],
          'stdout-log': ['copes', 'junk-skipped'],
          'name-collision': ['fails-loudly', 'clash-refused'],
        };
        for (const [card, [outcome, symptom]] of Object.entries(expected)) {
          const article = page.getByTestId(`failure-card-${card}`);
          await article.getByRole('button', { name: 'Run with the reference' }).click();
          const verdict = article.getByTestId('verdict');
          await verdict.waitFor({ timeout: limit(30_000) });
          expect([await verdict.getAttribute('data-outcome'), await verdict.getAttribute('data-symptom')], `${card}: ${await verdict.textContent()}`).toEqual([outcome, symptom]);
        }
        // The live log holds every entry of those runs, but only the rows in view are in the page
        // (rendered whole, they were most of its ~9,000 elements), and it shows the newest. The
        // worker reports each of split-writes' writes as an entry of its own (hundreds); a real
        // pipe (the bridge) merges some, so how many it logs depends on the machine.
        const rows = page.getByRole('list', { name: 'Message log' }).locator('li.log-entry');
        const placeOfLast = async () => ({ place: Number(await rows.last().getAttribute('aria-posinset')), of: Number(await rows.last().getAttribute('aria-setsize')) });
        await expect.poll(async () => { const { place, of } = await placeOfLast(); return place === of; }, { timeout: limit(10_000), interval: 200 }).toBe(true);
        expect(await rows.count()).toBeLessThan(60);
        if (host === 'worker') expect((await placeOfLast()).of).toBeGreaterThan(300);
        // The symptom is shown where it happens: the pending table for id pairing…
        expect(await page.getByTestId('failure-card-id-pairing').getByTestId('verdict').textContent()).toContain('Request #2 was answered before #1');
        // …the registry for the name clash (the last run is still on the stepper)…
        expect(await page.getByTestId('registry-view').textContent()).toContain('mcp__echo__add');
        // …and the bytes for a log line on stdout: "Show it" opens the unreadable frame.
        await page.getByTestId('failure-card-stdout-log').getByRole('button', { name: 'Run with the reference' }).click();
        await page.getByTestId('failure-card-stdout-log').getByTestId('verdict').waitFor({ timeout: limit(30_000) });
        await page.getByTestId('failure-card-stdout-log').getByRole('button', { name: 'Show it' }).click();
        await page.getByTestId('byte-inspector').waitFor();
        expect(await page.locator('#inspector-title').textContent()).toBe('Frame bytes: unreadable bytes');
        expect(await page.getByTestId('byte-inspector').getByTestId('hex-view').textContent()).toContain('[echo-server]');
        if (host === 'worker') {
          await page.getByRole('button', { name: 'Close', exact: true }).click();
          await page.getByTestId('byte-inspector').waitFor({ state: 'detached' });
          // The lab itself (the stepper, its diagram and the live panel around it are scanned
          // where their own tests bring them into view: the whole page here was ~9,000 elements, 6 s).
          await expectAccessible(page, 'the failure lab after running its cards', { include: '[data-testid="more-lab"]' });
        }
      } finally {
        await close();
      }
    });
  });
}

/**
 * The text of `cell` in every row of the message log that has one, in order, read as a learner
 * reads a long log: by scrolling it (only the rows in view are in the page). The log is left at
 * its bottom again, where it follows new rows.
 */
async function everyLogRowText(page: Page, cell: string): Promise<string[]> {
  return page.getByRole('list', { name: 'Message log' }).evaluate(async (list, selector) => {
    const box = list.parentElement as HTMLElement;
    const seen = new Map<number, string>();
    const rendered = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let top = 0; ; top += Math.max(1, box.clientHeight / 2)) {
      box.scrollTop = top;
      await rendered();
      for (const found of list.querySelectorAll(selector)) seen.set(Number(found.closest('[data-index]')?.getAttribute('data-index')), found.textContent ?? '');
      if (top >= box.scrollHeight - box.clientHeight) break;
    }
    box.scrollTop = box.scrollHeight;
    return [...seen].sort(([a], [b]) => a - b).map(([, text]) => text);
  }, cell);
}

