// Accessibility in real Chromium against the production build: axe-core (@axe-core/playwright)
// must find no serious or critical violation of WCAG 2.1 A/AA on each view, in the state a learner
// actually sees it. The scans live in the functional tests that already bring each view into that
// state (no second browser walk just to look), one `expectAccessible(page, 'what is on screen')`
// call each:
//
//   study view after a Run ........................ exercises.test.ts (starter fails)
//   Solve: reference beside the learner code ...... exercises.test.ts
//   confirm dialog "Use the reference" ............ exercises.test.ts (dialog only)
//   study view in Chinese, a hint open ............ exercises.test.ts (syntax error)
//   live panel after a handshake, a frame open .... live-panel.test.ts (worker host)
//   protocol view: stepper after three steps ...... protocol-view.ts (worker host)
//   protocol view: byte inspector open ............ protocol-view.ts (worker host)
//   protocol view: failure lab after its cards .... protocol-view.ts (failure-lab-worker.test.ts; the lab section)
//   preflight panel after its checks .............. preflight.test.ts
//   chapter loop after a merge and a turn ......... agent-turn.test.ts (worker host)
//   presenter (notes, key list, open frame) ....... presenter.test.ts
//   follow view, waiting and mirroring ............ presenter.test.ts
//   presenter on the HTTP stepper, connection open  http-presenter.test.ts
//   follow view of the HTTP stepper, same open .... http-presenter.test.ts
//   HTTP view with failure card 6 run (both hosts)  http-presenter.test.ts
//   trace view: opened trace, inspector open ...... traces.test.ts
//   trace view in Chinese, Find's filters on ...... traces.test.ts
//
// A new view is one more call in the test that reaches it, and one more row here.

import AxeBuilder from '@axe-core/playwright';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

const SANDBOX_FRAME = '[data-testid=learner-sandbox-frame]';

/** Whether every child frame of the page is the learner-code sandbox frame (or there is none). */
async function onlySandboxFrames(page: Page): Promise<boolean> {
  const children = page.frames().filter((frame) => frame !== page.mainFrame());
  for (const frame of children) {
    const element = await frame.frameElement();
    const isSandbox = await element.evaluate((node, selector) => node instanceof Element && node.matches(selector), SANDBOX_FRAME);
    await element.dispose();
    if (!isSandbox) return false;
  }
  return true;
}

/** One readable line per violating node: rule, impact, where, and axe's own summary of the fix. */
export async function blockingViolations(page: Page, include?: string): Promise<string[]> {
  // Only violations are read, so axe keeps only one node of each passing rule (resultTypes): the
  // violations themselves are reported in full, as before.
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).options({ resultTypes: ['violations'] });
  // With no child frame a learner reads there is nothing to gather across frames: axe.run in the
  // page itself ("legacy mode") checks the same document with the same rules, without the blank
  // page and the round trip of every partial result through Node that the frame-aware mode needs.
  // On the failure lab's ~9000 elements the frame-aware scan takes 24 s, the legacy one under 4 s.
  // The learner-code sandbox frame does not count: it shows nothing (1 px, transparent,
  // aria-hidden, out of the tab order; sandbox-escape.test.ts checks that box) and is left out.
  if (await onlySandboxFrames(page)) builder = builder.setLegacyMode(true).exclude(SANDBOX_FRAME);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${node.failureSummary?.replace(/\s+/g, ' ').slice(0, 300)}`));
}

/**
 * Fails with every serious or critical WCAG 2.1 A/AA violation axe finds on the page as it is
 * now (or only inside `include`, e.g. an open dialog). `view` names the state in the message.
 */
export async function expectAccessible(page: Page, view: string, options: { include?: string } = {}): Promise<void> {
  const violations = await blockingViolations(page, options.include);
  expect(violations, `axe on ${view}:\n${violations.join('\n')}`).toEqual([]);
}
