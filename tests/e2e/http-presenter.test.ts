// Presenter mode on the HTTP stepper, in real Chromium against the production build, on the
// in-browser worker host: `t` puts the Streamable HTTP stepper on the stage, the keys step it, the
// speaker notes follow its steps, and a follow view in a second tab draws the same connections and
// the connection open in the presenter's HTTP inspector, byte for byte. Then failure card 6, a
// client that ignores retry, shows its symptom on the worker host (in the presenter's stage) and
// on the bridge (the learner's page). axe on each of these views.

import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openOnHost, openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { limit } from './limits.ts';
import { IMPATIENT_RESUMES_BEFORE_HOLD } from '../../src/protocol/http/event-stream.ts';

const app = useAppAndBrowser();
const TOTAL = 5;

/** Wait until the presenter's HTTP stepper has finished `count` steps and is not in the middle of one. */
async function presenterAt(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    ([n, total]) =>
      document.querySelector('[data-testid=presenter-progress]')?.textContent === `${n} / ${total}` &&
      ['idle', 'ready', 'done'].includes(document.querySelector('[data-testid=http-status]')?.getAttribute('data-status') ?? ''),
    [count, TOTAL] as const,
    { timeout: limit(20_000) },
  );
}

async function followAt(page: Page, text: string): Promise<void> {
  await page.waitForFunction(([expected]) => document.querySelector('[data-testid=follow-progress]')?.textContent === expected, [text] as const, { timeout: limit(10_000) });
}

/** The diagram's connections as "request → status", in order. */
const connections = (page: Page) => page.getByTestId('http-exchange').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-request')} → ${node.getAttribute('data-status')}`));
const note = (page: Page) => page.getByTestId('speaker-note').textContent();

/** Run card 6 where the page shows the HTTP cards; its poll summaries as data. */
async function runRetryCard(page: Page) {
  await page.getByText('Failure lab: HTTP cards', { exact: true }).click();
  const card = page.getByTestId('http-card-ignores-retry');
  await card.getByRole('button', { name: 'Run on the live host' }).click();
  await card.getByTestId('http-card-result').waitFor({ timeout: limit(30_000) });
  const polls = await card.getByTestId('http-card-poll').evaluateAll((nodes) =>
    nodes.map((node) => ({ client: node.getAttribute('data-client'), reconnects: Number(node.getAttribute('data-reconnects')), result: node.getAttribute('data-result'), text: node.textContent })),
  );
  const exchanges = await card.getByTestId('http-card-exchange').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-role')} ${node.getAttribute('data-status')}`));
  const bodies = await card.getByTestId('http-card-body').allTextContents();
  const requests = await card.locator('[data-testid=http-card-exchange] pre:first-of-type').allTextContents();
  return { card, polls, exchanges, bodies, requests };
}

describe('presenter mode on the HTTP stepper', () => {
  let opened: TestPage;

  afterAll(async () => {
    await opened?.close();
  });

  it('exercise 6’s station puts the HTTP stepper on the stage; the keys step it, the notes follow, and the follow view draws the same connections and bytes', async () => {
    opened = await openPage(app.browser);
    const failures: string[] = [];
    const follow = opened.page;
    follow.on('pageerror', (error) => failures.push(`follow: ${error.message}`));
    await follow.goto(`${app.url}?host=worker&follow=1`);
    await follow.getByText('Waiting for the presenter…').waitFor({ timeout: limit(15_000) });

    const presenter = await opened.context.newPage();
    presenter.on('pageerror', (error) => failures.push(`presenter: ${error.message}`));
    await presenter.goto(`${app.url}?host=worker&presenter=1`);
    await presenter.getByTestId('presenter').waitFor({ timeout: limit(15_000) });
    await presenter.waitForFunction(() => document.activeElement?.classList.contains('presenter__main') === true, undefined, { timeout: limit(5000) });
    const stdioIntro = await note(presenter);

    // Exercise 6's station: its scene (HTTP · handshake) takes the stage, focus goes back to the
    // stage so the keys step it; the note is its intro; the follow view switches too.
    await presenter.getByTestId('presenter-station').getByRole('combobox').selectOption('06-streamable-http');
    await presenter.getByTestId('http-stepper').waitFor({ timeout: limit(10_000) });
    await presenterAt(presenter, 0);
    expect(await presenter.getByTestId('presenter-message').textContent()).toBe('Exercise 6: HTTP · handshake on the stage.');
    await presenter.waitForFunction(() => document.activeElement?.classList.contains('presenter__main') === true, undefined, { timeout: limit(5000) });
    const intro = await note(presenter);
    expect(intro).not.toBe(stdioIntro);
    expect(intro).toContain('one endpoint, /mcp');
    await followAt(follow, `Step 0 of ${TOTAL}`);
    expect(await follow.getByTestId('follow-step').getAttribute('data-transport')).toBe('http');

    // → one step: POST initialize; the note is about it; the follow view draws the same connection.
    await presenter.keyboard.press('ArrowRight');
    await presenterAt(presenter, 1);
    expect(await note(presenter)).toContain('POST /mcp with initialize');
    await followAt(follow, `Step 1 of ${TOTAL}`);
    expect(await follow.getByTestId('follow-step').getAttribute('data-step')).toBe('initialize');
    expect(await connections(follow)).toEqual(['POST initialize → 200']);
    const session = await presenter.getByTestId('holds-session').textContent();
    expect(session).toMatch(/^[0-9a-f]{32}$/);
    expect(await follow.getByTestId('holds-session').textContent()).toBe(session);

    // ← cannot undo real traffic: the presenter says so, nothing moves.
    await presenter.keyboard.press('ArrowLeft');
    expect(await presenter.getByTestId('presenter-message').textContent()).toContain('cannot step back');
    await presenterAt(presenter, 1);

    // End runs the session to its end; the notes end on DELETE; both screens show every connection.
    await presenter.keyboard.press('End');
    await presenterAt(presenter, TOTAL);
    expect(await note(presenter)).toContain('DELETE with the session id');
    await followAt(follow, `Step ${TOTAL} of ${TOTAL}`);
    await follow.waitForFunction(() => document.querySelector('[data-testid=follow-step]')?.getAttribute('data-step') === 'delete', undefined, { timeout: limit(10_000) });
    const shown = await connections(presenter);
    expect(shown).toEqual(expect.arrayContaining(['POST initialize → 200', 'POST notifications/initialized → 202', 'GET → 200', 'POST tools/call → 200', 'DELETE → 200']));
    await follow.waitForFunction((count) => document.querySelectorAll('[data-testid=http-exchange]').length === count, shown.length, { timeout: limit(10_000) });
    expect(await connections(follow)).toEqual(shown);
    // The card notes are there for when the cards come up.
    expect(await presenter.getByTestId('http-card-notes').locator('[data-card]').count()).toBe(6);

    // i opens the last connection in the presenter's HTTP inspector; the room sees the same bytes.
    await presenter.keyboard.press('i');
    const dialog = presenter.getByRole('dialog');
    await dialog.getByTestId('http-inspector').waitFor();
    const frame = follow.getByTestId('follow-frame');
    await frame.waitFor({ timeout: limit(10_000) });
    for (const which of ['request', 'response'] as const) {
      const there = await frame.getByTestId(`http-${which}`).getAttribute('data-b64');
      expect(there).toBeTruthy();
      expect(there).toBe(await dialog.getByTestId(`http-${which}`).getAttribute('data-b64'));
    }
    await expectAccessible(presenter, 'presenter mode on the HTTP stepper: notes, an open connection', { include: '[data-testid=presenter]' });
    await expectAccessible(follow, 'the follow view of the HTTP stepper, an open connection');
    await presenter.keyboard.press('Escape');
    await frame.waitFor({ state: 'detached', timeout: limit(10_000) });

    // 中文: the note and the follow view switch with the presenter.
    await presenter.getByRole('button', { name: '中文' }).click();
    await presenter.getByText('讲者备注').waitFor();
    expect(await note(presenter)).toContain('带会话 id 的 DELETE'); // the glossary's term (docs/glossary.zh-CN.md)
    await followAt(follow, `第 ${TOTAL} 步，共 ${TOTAL} 步`);
    await presenter.getByRole('button', { name: 'English' }).click();
    await presenter.getByText('Speaker notes').waitFor();

    // Exercise 3's station: back to the stdio stepper (stdio · handshake), and the follow view follows.
    await presenter.getByTestId('presenter-station').getByRole('combobox').selectOption('03-client');
    await presenter.getByTestId('http-stepper').waitFor({ state: 'detached' });
    expect(await presenter.getByTestId('presenter-message').textContent()).toBe('Exercise 3: stdio · handshake on the stage.');
    expect(await note(presenter)).toBe(stdioIntro);
    await followAt(follow, 'Step 0 of 9');
    expect(failures).toEqual([]);
  });

  it('card 6 on the worker host: the client that ignores retry comes back again and again; the one that waits retry comes back once and gets the result', async () => {
    const presenter = opened.context.pages()[1]!;
    await presenter.getByTestId('presenter-station').getByRole('combobox').selectOption('06-streamable-http');
    await presenter.getByTestId('http-stepper').waitFor();
    const { card, polls, exchanges, bodies, requests } = await runRetryCard(presenter);
    // The counts follow from the rule, not the machine's speed: each call asks the server to hold its
    // stream on its Nth (impatient) or first (patient) resume.
    expect(exchanges).toEqual(['setup 200', 'setup 202', 'symptom 200', 'symptom 200', 'symptom 200', 'recovery 200', 'recovery 200']);
    expect(exchanges.slice(-2)).toEqual(['recovery 200', 'recovery 200']);
    const [impatient, patient] = polls;
    expect(patient).toMatchObject({ client: 'patient', reconnects: 1, result: 'true' });
    expect(patient!.text).toContain('waited 1000 ms');
    expect(impatient).toMatchObject({ client: 'impatient', reconnects: IMPATIENT_RESUMES_BEFORE_HOLD, result: 'true' });
    expect(impatient!.text).toContain('waited 0 ms');
    // The exact bytes: the POST's stream ends after the priming event; the GET resumes from its id,
    // and each reconnection starts with the server's retry again.
    expect(bodies[2]).toBe('id: 1/0\nretry: 1000\ndata: \n\n');
    expect(requests[3]).toMatch(/^GET \/mcp HTTP\/1\.1␍␊\nHost: 127\.0\.0\.1␍␊\n.*Last-Event-ID: 1\/0␍␊\nConnection: close␍␊\n␍␊\n$/s);
    expect(bodies[3]).toMatch(/^retry: 1000\n/);
    expect(bodies.at(-1)).toContain('"result"');
    expect(await card.textContent()).toContain('MUST wait that many milliseconds');
    await expectAccessible(presenter, 'failure card 6 after a run', { include: '[data-testid=http-card-ignores-retry]' });
  });

  it('card 6 on the bridge host: the real Node server ends the stream early, the same symptom over real TCP', async () => {
    const { page, close } = await openOnHost(app, 'bridge', '#protocol');
    try {
      await page.getByRole('radio', { name: 'HTTP · handshake' }).check();
      const { polls, exchanges, bodies } = await runRetryCard(page);
      // Over real TCP too, the counts follow from the server's rule, not the machine's speed.
      expect(exchanges).toEqual(['setup 200', 'setup 202', 'symptom 200', 'symptom 200', 'symptom 200', 'recovery 200', 'recovery 200']);
      const [impatient, patient] = polls;
      expect(impatient).toMatchObject({ client: 'impatient', reconnects: IMPATIENT_RESUMES_BEFORE_HOLD, result: 'true' });
      expect(impatient!.text).toContain('waited 0 ms');
      expect(patient).toMatchObject({ client: 'patient', reconnects: 1, result: 'true' });
      expect(patient!.text).toContain('waited 1000 ms');
      expect(bodies[2]).toBe('id: 1/0\nretry: 1000\ndata: \n\n');
      // The whole HTTP view as a learner sees it: switch, toolbar, diagram, holds, the cards with a result.
      await expectAccessible(page, 'the HTTP stepper view with failure card 6 run', { include: '[data-testid=http-stepper]' });
    } finally {
      await close();
    }
  });
});
