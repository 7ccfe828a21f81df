// A `#trace=` link whose message is nested 200,000 levels deep: expanding its row used to throw a
// RangeError in the pretty-printer and, with no error boundary, blank the whole app. Now the row
// renders cut with a marker. And when a view does fail (forced here by breaking JSON.stringify in
// the page), its error boundary says so and the rest of the app keeps working.

import { describe, expect, it } from 'vitest';
import { traceHash } from '../../src/app/trace/trace-link.ts';
import { openOnHost, useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
/** A wait's limit, scaled for this machine (tests/e2e/limits.ts). */
const wait = (quietMs = 30_000) => limit(quietMs);
const DEPTH = 200_000;

const HEADER = { format: 'mcp-playground-trace', version: 1, mode: 'stdio', framing: 'ndjson', framingSource: 'given', started: '2026-12-01T16:00:00.000Z', recorder: 'e2e', program: ['node', 'server.js'] };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const deepMessage = `{"jsonrpc":"2.0","id":1,"result":${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}\n`;
const trace = [
  HEADER,
  { tap: 1, ev: 'spawn', t: 0, pid: 7, argv: ['node', 'server.js'] },
  { tap: 1, ev: 'c2s', t: 1, b64: b64('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deep"}}\n') },
  { tap: 1, ev: 's2c', t: 2, b64: b64(deepMessage) },
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join('');

describe('a trace nested 200,000 levels deep', () => {
  it('expands without blanking the app; a failing view says so and the rest lives', async () => {
    const hash = await traceHash(trace);
    expect(hash).not.toBeNull();
    const { page, consoleLines, close } = await openOnHost(app, 'worker', hash!);
    try {
      const list = page.getByRole('list', { name: 'Message log (trace)', exact: true });
      await list.getByRole('listitem').nth(2).waitFor({ timeout: wait() });
      const deepRow = list.getByRole('listitem').filter({ hasText: 'response to tools/call #1' });
      await deepRow.locator('button.log-entry__row').click();
      await page.getByText('This message is nested more than 100 levels deep').waitFor({ timeout: wait() });
      expect(await deepRow.locator('pre.json').textContent()).toContain('"…"');
      // The app is not blank: the header and the trace view are still there.
      expect(await page.locator('#root').evaluate((root) => root.childElementCount)).toBeGreaterThan(0);
      await page.getByRole('heading', { name: 'MCP Playground' }).waitFor({ timeout: wait() });
      expect(consoleLines.filter((line) => /RangeError|Maximum call stack/.test(line))).toEqual([]);

      // The boundary: break the printer (as an unknown bug would), then expand the request's row.
      await page.evaluate(() => {
        const real = JSON.stringify;
        (window as unknown as { restoreStringify: () => void }).restoreStringify = () => (JSON.stringify = real);
        // Only the pretty-printer's call (two-space indent) fails; everything else keeps working.
        JSON.stringify = function (this: unknown, value: unknown, replacer?: unknown, space?: string | number) {
          if (space === 2) throw new RangeError('printer broken on purpose by the test');
          return real.call(JSON, value, replacer as never, space);
        } as typeof JSON.stringify;
      });
      const requestRow = list.getByRole('listitem').filter({ hasText: 'tools/call #1' }).filter({ hasNotText: 'response' });
      expect(await requestRow.count()).toBe(1);
      await requestRow.locator('button.log-entry__row').click();
      const alert = page.getByRole('alert').filter({ hasText: 'The Trace view failed.' });
      await alert.waitFor({ timeout: wait() });
      await page.evaluate(() => (window as unknown as { restoreStringify: () => void }).restoreStringify());
      expect(await alert.textContent()).toContain('printer broken on purpose by the test');
      // The rest of the app lives: the live panel still runs a handshake on its host.
      await page.getByRole('button', { name: 'Run handshake' }).click();
      await page.getByText(/^Handshake complete\./).waitFor({ timeout: wait() });
    } finally {
      await close();
    }
  });
});
