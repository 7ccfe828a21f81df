// Accessibility in real Chromium against the production build: axe-core (@axe-core/playwright)
// finds no serious or critical violation of WCAG 2.1 A/AA on any main view, each in the state a
// learner actually sees it (after a run, mid-handshake, with the byte inspector open, in Chinese…).
//
// The views are a table: a new view (presenter mode, the preflight panel, a dialog) is one more row
// with the address to open and the steps that bring it on screen.

import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, useAppAndBrowser } from './browser.ts';

const app = useAppAndBrowser();

interface View {
  name: string;
  /** Appended to the server's URL. */
  path: string;
  /** navigator.language; default en-US. */
  locale?: string;
  /** Brings the view into the state to check; the page has loaded `path`. */
  prepare: (page: Page) => Promise<void>;
  /** Only check inside this selector (e.g. an open dialog); default the whole page. */
  include?: string;
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

async function editorReady(page: Page): Promise<void> {
  await page.getByTestId('code-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: 20_000 });
}

async function runTests(page: Page): Promise<void> {
  await page.getByTestId('run-button').click();
  await page.waitForFunction(() => ['pass', 'fail', 'error'].includes(document.querySelector<HTMLElement>('[data-testid="run-status"]')?.dataset.status ?? ''), undefined, { timeout: 15_000 });
}

async function liveHost(page: Page): Promise<void> {
  await page.locator('[data-testid="host-badge"].host-badge--chosen').waitFor({ timeout: 15_000 });
}

async function stepTo(page: Page, count: number): Promise<void> {
  for (let step = 1; step <= count; step++) {
    await page.getByRole('button', { name: 'Step ▶', exact: true }).click();
    await page.waitForFunction((n) => document.querySelector('[data-testid=stepper-progress]')?.textContent?.startsWith(`Step ${n} of`) === true, step, { timeout: 20_000 });
  }
  await page.waitForFunction(() => ['ready', 'done', 'idle'].includes(document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') ?? ''), undefined, { timeout: 20_000 });
}

const VIEWS: View[] = [
  {
    name: 'study view: lesson, editor and results after a Run',
    path: '?host=worker',
    prepare: async (page) => {
      await editorReady(page);
      await runTests(page);
      await page.getByTestId('test-result').first().getByRole('button').first().click().catch(() => {});
    },
  },
  {
    name: 'study view in Chinese, with a hint open',
    path: '?host=worker',
    locale: 'zh-CN',
    prepare: async (page) => {
      await editorReady(page);
      await runTests(page);
      await page.getByRole('button', { name: '显示一条提示' }).click();
    },
  },
  {
    name: 'study view: Solve (reference beside the learner code)',
    path: '?host=worker',
    prepare: async (page) => {
      await editorReady(page);
      await page.getByRole('button', { name: 'Solve' }).click();
      await page.getByTestId('diff-editor').locator('.monaco-diff-editor').waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'confirm dialog: use the reference',
    path: '?host=worker',
    include: '[role="dialog"], dialog',
    prepare: async (page) => {
      await editorReady(page);
      await page.getByRole('button', { name: 'Solve' }).click();
      await page.getByRole('button', { name: 'Use the reference' }).click();
      await page.getByRole('dialog', { name: 'Replace your code with the reference?' }).waitFor();
    },
  },
  {
    name: 'live panel after a handshake',
    path: '?host=worker#live-panel',
    prepare: async (page) => {
      await liveHost(page);
      await page.getByRole('button', { name: 'Run handshake' }).click();
      await page.getByText('Handshake complete.').waitFor({ timeout: 15_000 });
      // One frame opened in the log, so its details are checked too.
      await page.getByRole('list', { name: 'Message log' }).getByRole('listitem').filter({ hasText: 'response to initialize' }).first().getByRole('button').first().click();
    },
  },
  {
    name: 'protocol view: stepper after three steps',
    path: '?host=worker#protocol',
    prepare: async (page) => {
      await liveHost(page);
      await stepTo(page, 3);
    },
  },
  {
    name: 'protocol view: byte inspector open on a frame',
    path: '?host=worker#protocol',
    prepare: async (page) => {
      await liveHost(page);
      await stepTo(page, 2);
      await page.getByTestId('diagram-arrow').last().click();
      await page.getByTestId('byte-inspector').waitFor();
    },
  },
  {
    name: 'protocol view: failure lab after running a card',
    path: '?host=worker#protocol',
    prepare: async (page) => {
      await liveHost(page);
      const card = page.getByTestId('failure-card-stdout-log');
      await card.scrollIntoViewIfNeeded();
      await card.getByRole('button', { name: 'Run with the reference' }).click();
      await card.locator('[data-status="done"], [data-status="failed"], .is-done, [data-outcome]').first().waitFor({ timeout: 20_000 }).catch(() => page.waitForTimeout(3000));
    },
  },
  {
    name: 'preflight panel after its checks',
    path: '?host=worker#preflight',
    prepare: async (page) => {
      await page.locator('#preflight-heading').waitFor({ timeout: 15_000 });
      await page.waitForFunction(() => document.querySelector('.preflight__rows')?.getAttribute('aria-busy') === 'false', undefined, { timeout: 30_000 });
    },
  },
  {
    name: 'chapter loop (#agent)',
    path: '?host=worker#agent',
    prepare: async (page) => {
      await page.locator('#agent-view').waitFor({ timeout: 15_000 });
      await liveHost(page);
    },
  },
  {
    name: 'presenter mode after two steps (?presenter=1)',
    path: '?host=worker&presenter=1',
    prepare: async (page) => {
      await page.getByTestId('presenter').waitFor({ timeout: 15_000 });
      await liveHost(page).catch(() => {});
      // Presenter mode is driven by keys: → steps.
      await page.locator('.presenter__main').press('ArrowRight');
      await page.waitForTimeout(1500);
    },
  },
  {
    name: 'follow view, waiting for a presenter (?follow=1)',
    path: '?host=worker&follow=1',
    prepare: async (page) => {
      await page.getByTestId('follow').waitFor({ timeout: 15_000 });
    },
  },
];

/** One readable line per violating node: rule, impact, where, and axe's own summary of the fix. */
async function blockingViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${node.failureSummary?.replace(/\s+/g, ' ').slice(0, 300)}`));
}

describe('axe: no serious or critical violations', () => {
  it.each(VIEWS.map((view) => [view.name, view] as const))('%s', { timeout: 90_000 }, async (_name, view) => {
    const { page, close, consoleLines } = await openPage(app.browser, { locale: view.locale, onlyOrigin: new URL(app.server.url).origin });
    try {
      await page.goto(`${app.server.url}${view.path}`);
      await view.prepare(page);
      const violations = await blockingViolations(page, view.include);
      expect(violations, violations.join('\n')).toEqual([]);
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('visible focus', () => {
  it('every control reached with Tab on the study view shows an outline or a ring', { timeout: 60_000 }, async () => {
    const { page, close } = await openPage(app.browser, { onlyOrigin: new URL(app.server.url).origin });
    try {
      await page.goto(`${app.server.url}?host=worker`);
      await editorReady(page);
      const unmarked: string[] = [];
      // The first 40 stops cover the header, the exercise list, the lesson, the workspace buttons.
      for (let stop = 0; stop < 40; stop++) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element || element === document.body) return null;
          // Monaco draws its own cursor and border in its textarea; the editor frame is checked by its own rule.
          if (element.closest('.monaco-editor')) return { name: 'monaco', visible: true };
          const style = getComputedStyle(element);
          const visible = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
          return { name: `${element.tagName.toLowerCase()} ${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''}`, visible };
        });
        if (focus && !focus.visible) unmarked.push(focus.name);
      }
      expect(unmarked).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('colour is never the only cue in the byte view', () => {
  it('each field of a frame has its own underline style, and the legend names them', { timeout: 60_000 }, async () => {
    const { page, close } = await openPage(app.browser, { onlyOrigin: new URL(app.server.url).origin });
    try {
      await page.goto(`${app.server.url}?host=worker#protocol`);
      await liveHost(page);
      await stepTo(page, 2);
      await page.locator('[data-testid="diagram-arrow"][role="button"]').last().click();
      await page.getByTestId('byte-inspector').waitFor();
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
    } finally {
      await close();
    }
  });
});
