// Presenter mode in real Chromium against the production build, on the in-browser worker host:
// the presenter steps through the handshake with the keyboard alone (no clicks), its speaker notes
// follow the step, and a follow view in a second tab of the same browser mirrors every step and the
// frame open in the inspector, over a BroadcastChannel.

import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { openPage, useAppAndBrowser, type TestPage } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

const TOTAL = 9;

/** Wait until the presenter shows `count` steps and is not in the middle of one. */
async function presenterAt(page: Page, count: number, total = TOTAL): Promise<void> {
  await page.waitForFunction(
    ([n, total]) =>
      document.querySelector('[data-testid=presenter-progress]')?.textContent === `${n} / ${total}` &&
      ['idle', 'ready', 'done'].includes(document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') ?? ''),
    [count, total] as const,
    { timeout: limit(20_000) },
  );
}

/** Wait until the follow view shows `count` steps. */
async function followAt(page: Page, count: number, text = `Step ${count} of ${TOTAL}`): Promise<void> {
  await page.waitForFunction(([expected]) => document.querySelector('[data-testid=follow-progress]')?.textContent === expected, [text] as const, { timeout: limit(10_000) });
}

/** The diagram's arrows as their accessible names say them, without the byte counts. */
async function arrowNames(page: Page): Promise<string[]> {
  return (await page.getByTestId('diagram-arrow').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''))).map((name) => name.replace(/, \d+ (B|字节).*$/, ''));
}

const note = (page: Page) => page.getByTestId('speaker-note').textContent();

describe('presenter mode', () => {
  let opened: TestPage;

  afterAll(async () => {
    await opened?.close();
  });

  it('is driven by the keyboard alone, and the follow view mirrors it', async () => {
    opened = await openPage(app.browser);
    const { context } = opened;
    const failures: string[] = [];

    // The follow view first: with no presenter yet, it says so.
    const follow = opened.page;
    follow.on('pageerror', (error) => failures.push(`follow: ${error.message}`));
    await follow.goto(`${app.url}?host=worker&follow=1`);
    await follow.getByText('Waiting for the presenter…').waitFor({ timeout: limit(15_000) });
    await expectAccessible(follow, 'the follow view, waiting for a presenter');

    const presenter = await context.newPage();
    presenter.on('pageerror', (error) => failures.push(`presenter: ${error.message}`));
    await presenter.goto(`${app.url}?host=worker&presenter=1`);
    await presenter.getByTestId('presenter').waitFor({ timeout: limit(15_000) });
    await presenterAt(presenter, 0);

    // No editor, and the keys work without a click: focus is already on the stage.
    expect(await presenter.locator('.monaco-editor, [data-testid=code-editor]').count()).toBe(0);
    await presenter.waitForFunction(() => document.activeElement?.classList.contains('presenter__main') === true, undefined, { timeout: limit(5000) });
    await follow.getByTestId('follow-progress').waitFor({ timeout: limit(10_000) });
    await followAt(follow, 0);

    const intro = await note(presenter);
    expect(intro).toContain('Three lanes');

    // → one step: the initialize request; the note is about it; the follow view draws the same arrow.
    await presenter.keyboard.press('ArrowRight');
    await presenterAt(presenter, 1);
    const first = await note(presenter);
    expect(first).not.toBe(intro);
    expect(first).toContain('initialize with id 0');
    await followAt(follow, 1);
    expect(await arrowNames(follow)).toEqual(['client → server: initialize #0']);
    expect(await follow.getByTestId('follow-step').textContent()).toContain('Now: send initialize');

    // Space steps too: the answer arrives, and the note moves on with it.
    await presenter.keyboard.press(' ');
    await presenterAt(presenter, 2);
    expect(await note(presenter)).toContain('Same id 0');
    await followAt(follow, 2);
    expect(await arrowNames(follow)).toEqual(await arrowNames(presenter));

    // End runs to the end; both show the whole conversation, arrow for arrow.
    await presenter.keyboard.press('End');
    await presenterAt(presenter, TOTAL);
    expect(await note(presenter)).toContain('exited with code 0');
    await followAt(follow, TOTAL);
    const all = await arrowNames(presenter);
    expect(all).toHaveLength(9);
    expect(all[all.length - 1]).toBe('server → client: exit code 0');
    expect(await arrowNames(follow)).toEqual(all);

    // ← steps back (nothing is sent): the note and the follow view go back with it.
    await presenter.keyboard.press('ArrowLeft');
    await presenterAt(presenter, TOTAL - 1);
    expect(await note(presenter)).toContain('stdio has no goodbye message');
    await followAt(follow, TOTAL - 1);
    expect(await arrowNames(follow)).toEqual(all.slice(0, 8));

    // n hides and shows the notes; the follow view never has notes.
    await presenter.keyboard.press('n');
    await presenter.getByTestId('speaker-notes').waitFor({ state: 'detached' });
    await presenter.keyboard.press('n');
    await presenter.getByTestId('speaker-notes').waitFor();
    expect(await follow.getByTestId('speaker-notes').count()).toBe(0);

    // ? shows the keys, Escape hides them.
    await presenter.keyboard.press('?');
    await presenter.getByTestId('key-help').waitFor();
    expect(await presenter.getByTestId('key-help').textContent()).toContain('Step back (nothing is sent)');
    await presenter.keyboard.press('Escape');
    await presenter.getByTestId('key-help').waitFor({ state: 'detached' });

    // i opens the last frame shown (the echo call's result), and the room sees the same frame.
    await presenter.keyboard.press('i');
    await presenter.getByRole('dialog', { name: 'Frame bytes: result of tools/call #2' }).waitFor();
    await follow.getByTestId('follow-frame').waitFor({ timeout: limit(10_000) });
    expect(await follow.getByTestId('follow-frame').getByRole('heading', { level: 2 }).textContent()).toContain('result of tools/call #2');
    expect(await follow.getByTestId('follow-frame').getByTestId('byte-counts').textContent()).toEqual(await presenter.getByRole('dialog').getByTestId('byte-counts').textContent());
    await presenter.keyboard.press('Escape');
    await follow.getByTestId('follow-frame').waitFor({ state: 'detached', timeout: limit(10_000) });

    // Home starts again from the first step, on both screens.
    await presenter.keyboard.press('Home');
    await presenterAt(presenter, 0);
    expect(await note(presenter)).toBe(intro);
    await followAt(follow, 0);
    expect(await follow.getByTestId('diagram-arrow').count()).toBe(0);

    // f asks for full screen: either the browser grants it or the page says what to do instead.
    await presenter.keyboard.press('f');
    await presenter.waitForFunction(() => document.fullscreenElement !== null || /full screen/i.test(document.querySelector('[data-testid=presenter-message]')?.textContent ?? ''), undefined, { timeout: limit(5000) });

    expect(failures).toEqual([]);
  });

  it('switches language in presenter mode, and the follow view switches with it', async () => {
    const { context } = opened;
    const [follow, presenter] = context.pages();
    await presenter!.getByRole('button', { name: '中文' }).click();
    await presenter!.getByText('讲者备注').waitFor();
    expect(await note(presenter!)).toContain('三条泳道');
    // The follow view hears the language with the next state message.
    await followAt(follow!, 0, '第 0 步，共 9 步');
    expect(await follow!.getByRole('heading', { level: 1 }).textContent()).toBe('正在跟随讲者');
  });

  it('has no serious or critical axe violations, presenter (notes, key list, open frame) and follow view alike', async () => {
    const [follow, presenter] = opened.context.pages();
    await presenter!.keyboard.press('End');
    await presenterAt(presenter!, TOTAL);
    await presenter!.keyboard.press('?');
    await presenter!.getByTestId('key-help').waitFor();
    await presenter!.keyboard.press('i');
    await presenter!.getByRole('dialog').waitFor();
    await follow!.getByTestId('follow-frame').waitFor({ timeout: limit(10_000) });
    await expectAccessible(presenter!, 'presenter mode: notes, key list, an open frame');
    await expectAccessible(follow!, 'the follow view mirroring an open frame');
  });

  it('walks the scenes and the stations: a failure card on the stage, t moves to the next scene, the notes and the follow view follow it, an exercise puts its own scene (or the chapter loop) on the stage', async () => {
    const [follow, presenter] = opened.context.pages();
    // Still in Chinese (the language test), with the key list and a frame open (the axe test).
    await presenter!.keyboard.press('Escape');
    await presenter!.getByRole('dialog').waitFor({ state: 'detached' });
    await presenter!.keyboard.press('Escape');
    await presenter!.getByTestId('key-help').waitFor({ state: 'detached' });

    // Break it on the stage: the lab folds out under the handshake scene; a card's run takes the
    // stepper, and the notes say a lab scenario (not the handshake) is on the stage.
    await presenter!.getByTestId('more-lab').locator('summary').click();
    const card = presenter!.getByTestId('failure-card-frame-boundaries');
    await card.getByRole('button', { name: '用参考实现运行' }).click();
    await card.getByTestId('verdict').waitFor({ timeout: limit(30_000) });
    expect(await presenter!.getByTestId('speaker-note').getAttribute('data-scene')).toBe('none');
    expect(await note(presenter!)).toContain('失败模式实验室');

    // t: stdio · 2026-07-28. Eight steps, the modern notes, and no initialize anywhere on the wire.
    await presenter!.keyboard.press('t');
    await presenterAt(presenter!, 0, 8);
    expect(await presenter!.getByTestId('presenter-message').textContent()).toBe('舞台上的场景：stdio · 2026-07-28。');
    expect(await presenter!.getByTestId('speaker-note').getAttribute('data-scene')).toBe('stdio-modern');
    expect(await note(presenter!)).toContain('2026-07-28 修订版');
    await presenter!.keyboard.press('End');
    await presenterAt(presenter!, 8, 8);
    const modern = await arrowNames(presenter!);
    expect(modern[0]).toBe('客户端 → 服务器: server/discover #0');
    expect(modern.some((name) => name.includes('initialize'))).toBe(false);
    await followAt(follow!, 8, '第 8 步，共 8 步');
    expect(await arrowNames(follow!)).toEqual(modern);

    // t again: the probe that falls back (nine steps, its own notes).
    await presenter!.keyboard.press('t');
    await presenterAt(presenter!, 0, 9);
    expect(await presenter!.getByTestId('speaker-note').getAttribute('data-scene')).toBe('stdio-probe');

    // Exercise 4 meets the server in the chapter loop: the chapter loop goes on the stage, and the
    // stepping keys say it has its own buttons.
    const station = presenter!.getByTestId('presenter-station').getByRole('combobox');
    await station.selectOption('04-server');
    expect(await presenter!.getByTestId('presenter-message').textContent()).toBe('练习 4 在本章闭环里与服务器见面：它已在舞台上。');
    await presenter!.locator('.presenter__stage #agent-view').waitFor({ timeout: limit(30_000) });
    expect(await presenter!.getByTestId('presenter-loop').getAttribute('aria-pressed')).toBe('true');
    await presenter!.locator('.presenter__main').focus();
    await presenter!.keyboard.press('ArrowRight');
    expect(await presenter!.getByTestId('presenter-message').textContent()).toBe('本章闭环没有可用这些按键走的步骤：请用它自己的按钮，或按 t 回到场景。');
    // Exercise 7's station: the 2026-07-28 stepper, from its first step; the keys step it at once.
    await station.selectOption('07-stateless-era');
    await presenterAt(presenter!, 0, 8);
    expect(await presenter!.getByTestId('presenter-message').textContent()).toBe('练习 7：舞台上是 stdio · 2026-07-28。');
    await presenter!.keyboard.press('ArrowRight');
    await presenterAt(presenter!, 1, 8);
    await followAt(follow!, 1, '第 1 步，共 8 步');
    expect(await arrowNames(follow!)).toEqual(['客户端 → 服务器: server/discover #0']);
  });
});
