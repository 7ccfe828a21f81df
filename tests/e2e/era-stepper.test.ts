// The stdio era scenes in real Chromium against the production build, on the local bridge (the built
// echo-server.mjs, started with --era=legacy through the bridge's closed set) and on the
// in-browser worker: the stepper runs 2026-07-28 to the end, the dual-era probe falls back against
// a handshake-era-only server, and an arrow's bytes in the inspector are exactly the bytes the tap
// reported (the message log's copy of the same frame). On the worker also: the inspector singles
// out the `_meta` keys, one era failure card, axe.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { HOST_NAMES, openOnHost, useAppAndBrowser, type HostKind } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();

const MODERN_ARROWS = [
  'client → server: server/discover #0',
  'server → client: result of server/discover #0',
  'client → server: tools/list #1',
  'server → client: result of tools/list #1',
  'client → server: tools/call #2',
  'server → client: result of tools/call #2',
  'client → server: stdin EOF',
  'server → client: exit code 0',
];

const FALLBACK_ARROWS = [
  'client → server: server/discover #0',
  'server → client: error for server/discover #0',
  'client → server: initialize #1',
  'server → client: result of initialize #1',
  'client → server: notifications/initialized',
  'client → server: tools/list #2',
  'server → client: result of tools/list #2',
  'client → server: tools/call #3',
  'server → client: result of tools/call #3',
  'client → server: stdin EOF',
  'server → client: exit code 0',
];

const arrows = (page: Page) => page.getByTestId('diagram-arrow');

async function arrowNames(page: Page): Promise<string[]> {
  return (await arrows(page).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''))).map((name) => name.replace(/, \d+ B.*$/, ''));
}

async function runToEnd(page: Page, total: number): Promise<void> {
  await page.getByRole('button', { name: 'Run to end ▶▶', exact: true }).click();
  await page.waitForFunction(
    (of) => document.querySelector('[data-testid=stepper-progress]')?.textContent === `Step ${of} of ${of}` && ['done', 'failed'].includes(document.querySelector('[data-testid=stepper-status]')?.getAttribute('data-status') ?? ''),
    total,
    { timeout: limit(30_000) },
  );
  expect(await page.getByTestId('stepper-status').getAttribute('data-status')).toBe('done');
}

/** The open inspector's bytes, as hex. */
async function inspectedHex(page: Page): Promise<string> {
  // Waited for: the dialog opens once the inspector's code is loaded, a moment after the click.
  const bytes = page.getByTestId('byte-inspector').locator('.hex-bytes [data-i]');
  await bytes.first().waitFor();
  const hex = await bytes.allTextContents();
  return hex.join(' ');
}

async function closeInspector(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByTestId('byte-inspector').waitFor({ state: 'detached' });
}

function eraTests(host: HostKind): void {
  describe(`the stdio era scenes on the ${HOST_NAMES[host]} host`, () => {
    it('runs 2026-07-28 to the end, then the probe falls back against a handshake-era-only server; bytes match the tap', async () => {
      const { page, close, consoleLines } = await openOnHost(app, host, '#protocol');
      try {
        // The era section (what the server runs, the era cards) is collapsed under the stepper.
        await page.getByTestId('more-era').locator('summary').click();
        await page.getByRole('radio', { name: 'stdio · 2026-07-28' }).check();
        // The words follow the scene: no handshake in its title or its first explanation.
        expect(await page.getByTestId('stepper').getByRole('heading', { level: 3 }).first().textContent()).toBe('2026-07-28 stepper (no handshake)');
        expect(await page.getByTestId('stepper-status').textContent()).toContain('server/discover');
        await runToEnd(page, 8);
        expect(await arrowNames(page)).toEqual(MODERN_ARROWS);
        // No initialize crossed the wire, so no note says one did; the client ends in a final state.
        expect(await page.getByTestId('transcript').textContent()).not.toContain('initialize');
        expect(await page.getByTestId('state-machine-current').getAttribute('data-state')).toBe('closed');
        expect(await page.getByTestId('era-server').textContent()).toContain('both eras (the default), framing NDJSON');

        if (host === 'worker') {
          // The envelope's keys are singled out, and pointing at one lights exactly its bytes.
          await arrows(page).filter({ has: page.locator('text="tools/list #1"') }).first().click();
          const fields = page.getByTestId('era-fields');
          await fields.waitFor();
          expect(await fields.locator('[data-key]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-key')))).toEqual([
            'io.modelcontextprotocol/protocolVersion',
            'io.modelcontextprotocol/clientCapabilities',
            'io.modelcontextprotocol/clientInfo',
          ]);
          await fields.locator('[data-key="io.modelcontextprotocol/protocolVersion"]').hover();
          expect(await page.getByTestId('byte-inspector').locator('.hex-bytes .is-lit').count()).toBe(new TextEncoder().encode('"io.modelcontextprotocol/protocolVersion":"2026-07-28"').length);
          await expectAccessible(page, 'the inspector on a 2026-07-28 request');
          await closeInspector(page);
        }

        await page.getByRole('radio', { name: 'stdio · probe, then fall back' }).check();
        await runToEnd(page, 9);
        expect(await arrowNames(page)).toEqual(FALLBACK_ARROWS);
        expect(await page.getByTestId('era-server').textContent()).toContain('handshake era only (--era=legacy)');
        // The live panel says which era its next start speaks, and goes back to both in one click.
        expect(await page.getByTestId('server-era-note').textContent()).toContain('--era=legacy');
        // The host really runs the legacy-only server: its own log line says so.
        await page.getByText(/era legacy, faults: none/).first().waitFor({ timeout: limit(10_000) });

        // The probe's refusal: the inspector's bytes are the tap's bytes of that frame.
        await arrows(page).filter({ has: page.locator('text="error for server/discover #0"') }).first().click();
        const fromArrow = await inspectedHex(page);
        expect(fromArrow.length).toBeGreaterThan(0);
        await closeInspector(page);
        const row = page.getByRole('list', { name: 'Message log' }).locator('li.log-entry--s2c').filter({ hasText: 'error response to server/discover' }).last();
        await row.getByRole('button').first().click();
        await row.getByTestId('log-inspect').first().click();
        expect(await inspectedHex(page)).toBe(fromArrow);
        await closeInspector(page);

        if (host === 'worker') {
          await expectAccessible(page, 'the protocol view after the probe fell back');
          // One era card: a handshake-era client against a 2026-07-28-only server.
          const card = page.getByTestId('era-card-legacy-client');
          await card.getByRole('button', { name: 'Run it' }).click();
          const verdict = card.getByTestId('era-verdict');
          await verdict.waitFor({ timeout: limit(30_000) });
          expect(await verdict.getAttribute('data-kind')).toBe('dead-end');
          expect(await verdict.textContent()).toContain('got -32022: this server speaks only 2026-07-28');
        }
        expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
      } finally {
        await close();
      }
    });
  });
}

eraTests('bridge');
eraTests('worker');

describe.each(['bridge', 'worker'] as const)('the Chapter loop and the SDK checks in either era, on the %s host', (host) => {
  it('merges over a 2026-07-28 connection; SDK 2.4.0 checks the learner server (probe, fallback) and meets the learner client', async () => {
    const server = readFileSync(join(import.meta.dirname, '../../src/protocol/server.ts'), 'utf8');
    const client = readFileSync(join(import.meta.dirname, '../../src/protocol/client.ts'), 'utf8');
    const progress = JSON.stringify({
      version: 1,
      exercises: { '03-client': { code: client, completed: false, hintsRevealed: 0 }, '04-server': { code: server, completed: false, hintsRevealed: 0 } },
    });
    const { page, close, consoleLines } = await openOnHost(app, host, '#agent', (target) => target.addInitScript((value) => { if (window === window.top) localStorage.setItem('mcp-playground:progress', value); }, progress));
    try {
      await page.getByTestId('loop-era').getByRole('radio', { name: /^2026-07-28/ }).check();
      await page.getByRole('button', { name: 'Connect and merge', exact: true }).click();
      await page.waitForFunction(() => ['ready', 'failed'].includes(document.querySelector('[data-testid=agent-status]')?.getAttribute('data-phase') ?? ''), undefined, { timeout: limit(30_000) });
      expect(await page.getByTestId('agent-status').getAttribute('data-phase')).toBe('ready');
      // The live log saw the probe, never an initialize.
      const log = page.getByRole('list', { name: 'Message log' });
      await log.locator('li.log-entry--c2s').filter({ hasText: 'server/discover #0' }).first().waitFor();
      expect(await log.locator('li.log-entry--c2s').filter({ hasText: 'initialize' }).count()).toBe(0);

      await page.getByTestId('server-check-client').getByRole('radio', { name: /^SDK 2\.4\.0 Client/ }).check();
      await page.getByTestId('sdk-run-server').click();
      await page.waitForFunction(() => ['pass', 'fail', 'error'].includes(document.querySelector('[data-testid=sdk-report-server]')?.getAttribute('data-status') ?? ''), undefined, { timeout: limit(60_000) });
      const checks = await page.getByTestId('sdk-report-server').getByTestId('sdk-check').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-check')}:${node.getAttribute('data-status')}`));
      expect(checks).toEqual(['probe-fallback:pass', 'list-tools:pass', 'call-echo:pass']);

      // Check my client against SDK 2.4.0's server: both eras on the worker (all pass), modern
      // mode on the bridge (the handshake-era client is refused with -32022, and told why).
      const modernOnly = host === 'bridge';
      await page.getByTestId('client-check-server').getByRole('radio', { name: modernOnly ? /^SDK 2\.4\.0 server, 2026-07-28 only/ : /^SDK 2\.4\.0 server, both eras/ }).check();
      await page.getByTestId('sdk-run-client').click();
      await page.waitForFunction(() => ['pass', 'fail', 'error'].includes(document.querySelector('[data-testid=sdk-report-client]')?.getAttribute('data-status') ?? ''), undefined, { timeout: limit(60_000) });
      const report = page.getByTestId('sdk-report-client');
      expect(await report.getAttribute('data-status')).toBe(modernOnly ? 'fail' : 'pass');
      if (modernOnly) expect(await report.locator('[data-check="handshake"] .test-result__message').textContent()).toContain('-32022');
      if (host === 'worker') await expectAccessible(page, 'the Chapter loop with the era choices');
      expect(consoleLines.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
