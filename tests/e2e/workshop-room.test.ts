// The workshop room in Chromium on a shared bridge (`npm start -- --host`, bound to loopback for
// the test): an instructor's page and three attendee contexts (one in Chinese) join by the code
// the bridge prints, the grid fills as an attendee runs the tests, the bridge is restarted on the
// same port and file, and a report made while it was away reaches the grid afterwards. "Send
// everyone to exercise 3" asks each attendee: two go, one stays. Export results gives the CSV.
// Then leading across devices: the presenter view on the instructor's machine is followed over the
// room by a projector (its own browser context, with the follow link) and by attendees' laptops,
// and "Send everyone to" a step of a scene lands there.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.ts';
import { ROOM_EXERCISES } from '../../src/runtime/room-messages.ts';
import { expectAccessible } from './axe.ts';
import { distDir, downloadedText, openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'workshop-room-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function startBridge(roomFile: string, logs: string[], port = 0): Promise<RunningServer> {
  return startServer({ port, host: '127.0.0.1', shared: true, distDir: distDir(), skipBuild: true, roomFile, log: (line) => logs.push(line) });
}

/** The grid's rows as text, name first, in the order shown. */
function gridRows(page: Page): Promise<string[][]> {
  return page.locator('.room__grid tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell as HTMLElement).innerText.trim())));
}

async function joinRoomAs(opened: TestPage, url: string, name: string, submit: string): Promise<void> {
  await opened.page.goto(url);
  await opened.page.locator('form.room__join input').nth(1).fill(name);
  await opened.page.locator('form.room__join').getByRole('button', { name: submit }).click();
  await opened.page.locator('.room__in').waitFor();
}

describe('the workshop room', () => {
  it('joins three attendees by the printed code, fills the grid, and loses nothing across a bridge restart', { timeout: limit(120_000) }, async () => {
    const roomFile = join(folder, 'room.sqlite');
    const logs: string[] = [];
    let bridge = await startBridge(roomFile, logs);
    const port = bridge.port;
    const room = bridge.room!;
    const code = room.joinCode;
    const pages: TestPage[] = [];
    try {
      // The instructor's page (this machine): the code in large type, the link and its QR code.
      const instructor = await openPage(app.browser);
      pages.push(instructor);
      await instructor.page.goto(`${bridge.url}#room`);
      await instructor.page.getByText('Nobody has joined yet.').waitFor();
      expect(await instructor.page.locator('.room__code').textContent()).toBe(`${code.slice(0, 3)}-${code.slice(3)}`);
      expect(await instructor.page.locator('.room__url').allTextContents()).toEqual([`http://127.0.0.1:${port}/#join`]);
      await instructor.page.getByRole('img', { name: `QR code of http://127.0.0.1:${port}/#join with the join code` }).waitFor();
      await expectAccessible(instructor.page, 'the instructor room, empty');

      // A wrong code is refused with a clear error; the QR code's address fills the right one in.
      const ada = await openPage(app.browser);
      pages.push(ada);
      await ada.page.goto(`${room.joinUrls()[0]}`);
      await ada.page.getByLabel('Join code').fill('AAAAAA');
      await ada.page.getByLabel('Your name').fill('Ada');
      await ada.page.getByRole('button', { name: 'Join' }).click();
      await expect(ada.page.getByRole('alert').textContent()).resolves.toMatch(/^That is not this room's code/);
      await expectAccessible(ada.page, 'the join form with an error');
      await joinRoomAs(ada, `${room.joinUrls()[0]}=${code}`, 'Ada', 'Join');
      const li = await openPage(app.browser, { locale: 'zh-CN' });
      pages.push(li);
      await joinRoomAs(li, `${room.joinUrls()[0]}=${code}`, '李雷', '加入');
      expect(await li.page.locator('.room__in').textContent()).toBe('你已以 李雷 的身份加入教室。');
      const grace = await openPage(app.browser);
      pages.push(grace);
      await joinRoomAs(grace, `${room.joinUrls()[0]}=${code.toLowerCase()}`, 'Grace', 'Join');

      await instructor.page.getByText('Live: 3 joined, 3 connected', { exact: false }).waitFor();
      expect((await gridRows(instructor.page)).map((row) => row[0])).toEqual(['Ada', '李雷', 'Grace']);
      expect(logs.filter((line) => line.startsWith('[room]'))).toEqual(
        expect.arrayContaining(['[room] "Ada" joined (1 joined, 0 connected)', '[room] "李雷" joined (2 joined, 1 connected)', '[room] "Grace" connected (3 connected)']),
      );

      // Ada runs exercise 1's tests on the starter: the grid shows her station and her count.
      await ada.page.getByRole('link', { name: 'Go to the exercises' }).click();
      await ada.page.getByRole('button', { name: 'Run tests' }).click();
      await expect.poll(async () => (await gridRows(instructor.page))[0]?.slice(0, 4).join(' | '), { timeout: limit(60_000) }).toMatch(/^Ada \| Exercise 1 \| < 1 min \| 0\/\d+$/);
      await expectAccessible(instructor.page, 'the instructor room with attendees');
      // The chart of progress over time loads when opened; its numbers now are in a table too.
      await instructor.page.getByText('Progress over time').click();
      await instructor.page.getByTestId('progress-chart').locator('canvas').first().waitFor();
      await instructor.page.getByRole('table', { name: 'Completed now, of 3 joined' }).waitFor();
      expect(await instructor.page.locator('.room__chart-now td').allTextContents()).toEqual(Array(ROOM_EXERCISES).fill('0/3'));
      await expectAccessible(instructor.page, 'the progress chart');

      // Ada asks for help: the instructor gets her file and her failures, in a read-only editor.
      await ada.page.getByRole('region', { name: 'Workshop room' }).getByRole('button', { name: 'Ask for help' }).click();
      await ada.page.getByText('Your instructor has your file and results for exercise 1: you are number 1 in the queue.').waitFor();
      const queued = instructor.page.getByRole('button', { name: /^Ada · exercise 1 · jsonrpc\.ts · \d+ failing · < 1 min$/ });
      await queued.click();
      await instructor.page.getByRole('heading', { name: "Ada's question: exercise 1, jsonrpc.ts" }).waitFor();
      const helpEditor = instructor.page.getByTestId('help-editor').getByRole('textbox', { name: "Ada's jsonrpc.ts (read-only)" });
      await helpEditor.waitFor({ state: 'attached', timeout: limit(30_000) });
      // Monaco draws spaces as no-break spaces.
      await expect.poll(async () => (await instructor.page.getByTestId('help-editor').locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ')).toContain('Exercise 1: the JSON-RPC 2.0 codec');
      await expect(instructor.page.locator('.room__question-results').textContent()).resolves.toMatch(/(\d+) of \1 tests fail:/);
      await expectAccessible(instructor.page, 'a question opened in the help queue');
      await instructor.page.getByRole('button', { name: 'Mark as answered' }).click();
      await instructor.page.getByText('No open questions.').waitFor();

      // "Send everyone to exercise 3": each attendee is asked, wherever they are; two go, one stays.
      await instructor.page.getByLabel('Send everyone to').selectOption({ label: 'Exercise 3' });
      await instructor.page.getByRole('button', { name: 'Send', exact: true }).click();
      await instructor.page.getByText('Sent to 3 connected attendees: each is asked, and may stay.').waitFor();
      const invitation = (opened: TestPage, name: string) => opened.page.getByRole('region', { name });
      await invitation(ada, 'Your instructor').getByText('Your instructor sends everyone to Exercise 3.').waitFor();
      await expectAccessible(ada.page, 'the invitation over the study view');
      // Focus is on "Go there": Enter goes.
      await ada.page.keyboard.press('Enter');
      await invitation(li, '你的讲师').getByRole('button', { name: '前往' }).click();
      await invitation(grace, 'Your instructor').getByRole('button', { name: 'Stay here' }).click();
      await expect.poll(async () => (await gridRows(instructor.page)).map((row) => row.slice(0, 2).join(' | ')), { timeout: limit(30_000) }).toEqual(['Ada | Exercise 3', '李雷 | Exercise 3', 'Grace | Room']);
      expect(await ada.page.getByRole('button', { name: /The client lifecycle/ }).getAttribute('aria-current')).toBe('true');
      expect(await invitation(grace, 'Your instructor').count()).toBe(0);

      // The bridge stops; Grace moves on while it is away; the bridge comes back on the same port and file.
      await bridge.close();
      await expect.poll(() => instructor.page.locator('.room__grid-bar [role=status]').textContent()).toBe('The room\'s stream dropped; reconnecting…');
      const outboxLength = (page: Page, length: number) =>
        page.waitForFunction((expected) => (JSON.parse(localStorage.getItem('mcp-playground:room-outbox') ?? '[]') as unknown[]).length === expected, length, { timeout: limit(20_000) });
      await grace.page.evaluate(() => {
        window.location.hash = '#trace';
      });
      await outboxLength(grace.page, 1);
      await grace.page.evaluate(() => {
        window.location.hash = '#join';
      });
      await grace.page.getByText("2 reports wait for the instructor's bridge", { exact: false }).waitFor({ timeout: limit(20_000) });
      bridge = await startBridge(roomFile, logs, port);
      expect(bridge.room!.joinCode).toBe(code);

      // Every report acknowledged before, and the ones made while it was away, are in the grid.
      await grace.page.getByText('The instructor is up to date.').waitFor({ timeout: limit(60_000) });
      await expect.poll(async () => (await gridRows(instructor.page)).map((row) => row.slice(0, 2).join(' | ')), { timeout: limit(60_000) }).toEqual(['Ada | Exercise 3', '李雷 | Exercise 3', 'Grace | Room']);
      await instructor.page.getByText('Live: 3 joined, 3 connected', { exact: false }).waitFor({ timeout: limit(60_000) });
      const stored = bridge.room!.snapshot();
      expect(stored.attendees.find((view) => view.name === 'Ada')?.exercises['1']).toMatchObject({ passed: 0 });
      // Each report counted once: Ada's join, her move to the exercise, her run and her move to
      // exercise 3; 李雷's join and move to exercise 3; Grace's join, and her two moves made while
      // the bridge was away.
      expect(stored.reports).toBe(9);

      // Export results: the CSV the instructor keeps, one row per attendee × exercise, and the room's JSON.
      const [csv] = await Promise.all([instructor.page.waitForEvent('download'), instructor.page.getByRole('button', { name: 'Export results (CSV)' }).click()]);
      expect(csv.suggestedFilename()).toMatch(/^room-\d{4}-\d{2}-\d{2}\.csv$/);
      const rows = (await downloadedText(csv)).trimEnd().split('\r\n');
      expect(rows[0]).toBe('name,attendee,joined_at,exercise,passed,total,completed,hints,reference_used,station,last_run_at');
      expect(rows).toHaveLength(1 + 3 * ROOM_EXERCISES);
      expect(rows.filter((row) => row.startsWith('Ada,')).map((row) => row.split(',')[3])).toEqual(Array.from({ length: ROOM_EXERCISES }, (_, index) => String(index + 1)));
      expect(rows.find((row) => row.startsWith('Ada,') && row.split(',')[3] === '1')!.split(',').slice(4, 7)).toEqual(['0', expect.stringMatching(/^\d+$/), 'no']);
      const [json] = await Promise.all([instructor.page.waitForEvent('download'), instructor.page.getByRole('button', { name: 'Export the room (JSON)' }).click()]);
      const exported = JSON.parse(await downloadedText(json)) as { attendees: unknown[]; reports: unknown[] };
      expect([exported.attendees.length, exported.reports.length]).toEqual([3, 9]);
    } finally {
      for (const opened of pages) await opened.close();
      await bridge.close();
    }
  });

  it('leads the class across devices: a projector and attendees follow the presenter over the room, and go to a step of a scene', { timeout: limit(120_000) }, async () => {
    const logs: string[] = [];
    const bridge = await startBridge(join(folder, 'lead.sqlite'), logs);
    const code = bridge.room!.joinCode;
    const pages: TestPage[] = [];
    const progress = (page: Page) => page.getByTestId('follow-progress').textContent();
    try {
      const instructor = await openPage(app.browser);
      pages.push(instructor);
      await instructor.page.goto(`${bridge.url}#room`);
      const followLink = (await instructor.page.getByTestId('room-follow-link').textContent())!;
      expect(followLink).toBe(`http://127.0.0.1:${bridge.port}/?presenter=1&follow=1#join=${code}`);

      // A projector: another device with the follow link, no attendee of its own.
      const projector = await openPage(app.browser);
      pages.push(projector);
      await projector.page.goto(followLink);
      await projector.page.getByText('This page follows over the workshop room', { exact: false }).waitFor();
      await expectAccessible(projector.page, 'the follow view over the room, waiting');

      const ada = await openPage(app.browser);
      pages.push(ada);
      await joinRoomAs(ada, `${bridge.room!.joinUrls()[0]}=${code}`, 'Ada', 'Join');
      const li = await openPage(app.browser, { locale: 'zh-CN' });
      pages.push(li);
      await joinRoomAs(li, `${bridge.room!.joinUrls()[0]}=${code}`, '李雷', '加入');

      // The presenter view on the instructor's machine (in English), stepped with the keys.
      const [presenter] = await Promise.all([instructor.context.waitForEvent('page'), instructor.page.getByRole('link', { name: 'Open the presenter view' }).click()]);
      await presenter.getByTestId('presenter').waitFor();
      await presenter.getByText('Devices your last step reached over the room: 1').waitFor();
      // One step at a time: a key pressed while a step is still under way is ignored.
      const stepTo = async (step: number) => {
        await presenter.keyboard.press('ArrowRight');
        await presenter.waitForFunction(
          (expected) =>
            document.querySelector('[data-testid=presenter-progress]')?.textContent === expected &&
            ['ready', 'done'].includes(document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') ?? ''),
          `${step} / 9`,
          { timeout: limit(30_000) },
        );
      };
      await stepTo(1);
      await stepTo(2);
      await expect.poll(() => progress(projector.page), { timeout: limit(30_000) }).toBe('Step 2 of 9');

      // Ada follows from her room bar (a tab beside her work); 李雷 accepts "Send everyone to the
      // presenter's screen", and his follow view stays in his language.
      const [adaFollow] = await Promise.all([ada.context.waitForEvent('page'), ada.page.getByRole('region', { name: 'Workshop room' }).getByRole('button', { name: 'Follow the presenter' }).click()]);
      await expect.poll(() => progress(adaFollow), { timeout: limit(30_000) }).toBe('Step 2 of 9');
      await instructor.page.getByLabel('Send everyone to').selectOption({ label: "The presenter's screen (follow view)" });
      await instructor.page.getByRole('button', { name: 'Send', exact: true }).click();
      const [liFollow] = await Promise.all([li.context.waitForEvent('page'), li.page.getByRole('region', { name: '你的讲师' }).getByRole('button', { name: '前往' }).click()]);
      await expect.poll(() => progress(liFollow), { timeout: limit(30_000) }).toBe('第 2 步，共 9 步');
      await expect.poll(async () => (await gridRows(instructor.page)).map((row) => row[0]), { timeout: limit(30_000) }).toEqual(['Adafollowing', '李雷following']);

      // The presenter steps on: every device follows.
      await stepTo(3);
      for (const [page, text] of [[projector.page, 'Step 3 of 9'], [adaFollow, 'Step 3 of 9'], [liFollow, '第 3 步，共 9 步']] as const) {
        await expect.poll(() => progress(page), { timeout: limit(30_000) }).toBe(text);
      }
      await presenter.getByText('Devices your last step reached over the room: 3').waitFor();
      await instructor.page.getByText('Following now: 3').waitFor();
      await expectAccessible(projector.page, 'the follow view over the room');

      // "Send everyone to" a step of a scene: Ada's work tab opens stdio · 2026-07-28 at step 3.
      await instructor.page.getByLabel('Send everyone to').selectOption({ label: 'Protocol · stdio · 2026-07-28' });
      await instructor.page.getByLabel('at step').fill('3');
      await instructor.page.getByRole('button', { name: 'Send', exact: true }).click();
      await ada.page.getByRole('region', { name: 'Your instructor' }).getByText('Your instructor sends everyone to Protocol · stdio · 2026-07-28, step 3.').waitFor();
      await ada.page.getByRole('region', { name: 'Your instructor' }).getByRole('button', { name: 'Go there' }).click();
      await ada.page.locator('.protocol-view[data-scene=stdio-modern]').waitFor();
      await expect.poll(() => ada.page.evaluate(() => window.location.hash), { timeout: limit(60_000) }).toBe('#protocol/step/3');

      // A question about frames: Ada opens a frame in the byte inspector, closes it, and asks; the
      // instructor sees her file and that frame, byte for byte, in the byte inspector.
      await ada.page.getByTestId('diagram-arrow').first().click();
      const adaDialog = ada.page.getByRole('dialog');
      const adaCounts = await adaDialog.getByTestId('byte-counts').textContent();
      await ada.page.keyboard.press('Escape');
      await adaDialog.waitFor({ state: 'detached' });
      await ada.page.getByRole('region', { name: 'Workshop room' }).getByRole('button', { name: 'Ask for help' }).click();
      await ada.page.getByText('Your instructor has your file, results for exercise 1 and the frame you opened last: you are number 1 in the queue.').waitFor();
      await instructor.page.getByRole('button', { name: /^Ada · exercise 1 · jsonrpc\.ts/ }).click();
      const asked = instructor.page.getByTestId('help-frame');
      await asked.getByRole('heading', { name: 'The frame they asked about' }).waitFor();
      expect(await asked.getByTestId('byte-counts').textContent()).toBe(adaCounts);
      await expectAccessible(instructor.page, 'a question with its frame in the byte inspector');

      // The presenter's page closes: the room's follow views keep its last step, and say so.
      await presenter.close({ runBeforeUnload: true });
      await projector.page.getByText('The presenter’s page has closed.', { exact: false }).waitFor();
      expect(await progress(projector.page)).toBe('Step 3 of 9');
    } finally {
      for (const opened of pages) await opened.close();
      await bridge.close();
    }
  });
});
