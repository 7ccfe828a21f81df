// Opening a large trace (issue 17): a generated 100 MB, 100,000-message trace (NDJSON tools/call
// requests and their responses, one chunk each, a tenth of them split across two chunks).
//
// - Node: the page's own opening code (src/app/trace/trace-worker-core.ts: the trace format's
//   streaming reader validating every line, then the live panel's decoder cutting and classifying
//   every frame: "parse + index"), fed in 1 MiB slices like a file, against the floor measured in
//   the same run: JSON.parse of the same events as ONE JSON array (no validation, no frames).
// - Chromium: the production build opens the same file through the trace view's file input;
//   PerformanceObserver('longtask') reports the longest main-thread task between choosing the file
//   and the log showing, and the wall time. Baseline in the same page: the same events as one JSON
//   array, read from a file and JSON.parse'd on the main thread (what opening "as plain JSON" costs
//   the page's responsiveness).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../tests/e2e/chromium.ts';
import { currentBuild, serveBuild } from './app-build.ts';
import { readTrace } from '../src/app/trace/trace-worker-core.ts';
import { median, ratio } from './report.ts';

export const TRACE_MESSAGES = 100_000;
export const TRACE_TARGET_BYTES = 100 * 1024 * 1024;
const SLICE = 1 << 20;

export interface GeneratedTrace {
  /** The trace file's text (JSON lines). */
  text: string;
  /** The same header and events as one JSON array. */
  jsonArray: string;
  messages: number;
  events: number;
}

/** Issue 25's goals: opening within 2× a reader that only shows messages; no page task over 100 ms. */
export const TRACE_OPEN_GOAL_VS_FLOOR = 2;
export const TRACE_LONGEST_TASK_GOAL_MS = 100;

/** A trace of `messages` messages whose file is about `targetBytes` long. */
export function generateTrace(messages = TRACE_MESSAGES, targetBytes = TRACE_TARGET_BYTES): GeneratedTrace {
  const header = { format: 'mcp-playground-trace', version: 1, mode: 'stdio', framing: 'ndjson', framingSource: 'given', started: '2026-12-01T16:00:00.000Z', recorder: 'bench', program: ['node', 'server.js'] };
  // Each line is ~4/3 of its message (base64) plus ~40 bytes of event fields.
  const perMessage = Math.floor(((targetBytes / messages - 40) * 3) / 4);
  const lines: string[] = [JSON.stringify(header), JSON.stringify({ tap: 1, ev: 'spawn', t: 0, pid: 1, argv: ['node', 'server.js'] })];
  let t = 1;
  const event = (ev: 'c2s' | 's2c', bytes: Buffer) => lines.push(JSON.stringify({ tap: 1, ev, t: Math.round((t += 0.3) * 10) / 10, b64: bytes.toString('base64') }));
  for (let i = 0; i < messages; i++) {
    const request = i % 2 === 0;
    const id = Math.floor(i / 2);
    const message = (text: string) =>
      request
        ? { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } }
        : { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
    // "你好" is 6 bytes in 2 characters: pad by bytes, not characters.
    const pad = Math.max(0, perMessage - Buffer.byteLength(JSON.stringify(message(''))) - 1);
    const start = `message ${i} 你好 `;
    const text = start.padEnd(Math.max(start.length, pad - (Buffer.byteLength(start) - start.length)), 'x');
    const bytes = Buffer.from(`${JSON.stringify(message(text))}\n`);
    // Every tenth message arrives in two chunks, as real pipes deliver them.
    if (i % 10 === 9) {
      const cut = Math.floor(bytes.length / 2);
      event(request ? 'c2s' : 's2c', bytes.subarray(0, cut));
      event(request ? 'c2s' : 's2c', bytes.subarray(cut));
    } else event(request ? 'c2s' : 's2c', bytes);
  }
  const text = `${lines.join('\n')}\n`;
  return { text, jsonArray: `[${lines.join(',')}]`, messages, events: lines.length - 1 };
}

export interface TraceNodeRow {
  openMedianMs: number;
  jsonParseMedianMs: number;
  /** JSON.parse of the array, then every chunk's base64 decoded and each NDJSON message JSON.parse'd: what any reader that shows messages must do at least. */
  messagesFloorMedianMs: number;
  entries: number;
}

export interface TraceBrowserRow {
  /** Longest main-thread task while the trace view opened the file. */
  openLongestTaskMs: number;
  openWallMs: number;
  /** Longest main-thread task when the page JSON.parse'd the same content as one array. */
  jsonLongestTaskMs: number;
  jsonWallMs: number;
  /** The first search of the opened trace (every frame's JSON looked at): longest task and time to the count. */
  searchLongestTaskMs: number;
  searchWallMs: number;
}

export interface TraceReport {
  fileBytes: number;
  messages: number;
  events: number;
  node: TraceNodeRow;
  browser: TraceBrowserRow | null;
}

async function openInNode(text: Buffer): Promise<{ ms: number; entries: number }> {
  const started = performance.now();
  let entries = 0;
  const slices = (async function* () {
    for (let i = 0; i < text.length; i += SLICE) yield new Uint8Array(text.buffer, text.byteOffset + i, Math.min(SLICE, text.length - i));
  })();
  await readTrace(slices, text.length, (message) => {
    if (message.type === 'entries') entries += message.batch.entries.length;
    if (message.type === 'failed') throw new Error(message.error.message);
  });
  return { ms: performance.now() - started, entries };
}

export async function runTraceNodeBench(trace: GeneratedTrace, runs = 3): Promise<TraceNodeRow> {
  const bytes = Buffer.from(trace.text);
  const open: number[] = [];
  const parse: number[] = [];
  const floor: number[] = [];
  let entries = 0;
  // Interleaved, so a slow patch of the shared machine hits both alike.
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const parsed = JSON.parse(trace.jsonArray) as unknown[];
    parse.push(performance.now() - started);
    if (parsed.length !== trace.events + 1) throw new Error('the JSON array lost events');
    floor.push(messagesFloor(trace.jsonArray, trace.messages));
    const result = await openInNode(bytes);
    open.push(result.ms);
    entries = result.entries;
  }
  return { openMedianMs: median(open), jsonParseMedianMs: median(parse), messagesFloorMedianMs: median(floor), entries };
}

function messagesFloor(jsonArray: string, expected: number): number {
  const started = performance.now();
  const events = JSON.parse(jsonArray) as { ev?: string; b64?: string }[];
  const decoder = new TextDecoder();
  let pending = '';
  let messages = 0;
  for (const event of events) {
    if (event.ev !== 'c2s' && event.ev !== 's2c') continue;
    // Buffer's native base64: the fastest decode Node has, so this stays a floor.
    const lines = (pending + decoder.decode(Buffer.from(event.b64!, 'base64'))).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      JSON.parse(line);
      messages++;
    }
  }
  if (messages !== expected) throw new Error(`the floor read ${messages} messages`);
  return performance.now() - started;
}

// Runs in the page before its scripts: records every long task (≥ 50 ms) with its start and length.
// A string, injected over CDP (so the page's CSP does not apply): tsx would wrap a function's
// named parts in a helper the page does not have.
const LONGTASK_PROBE = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]); }).observe({ type: 'longtask', buffered: true });
})();`;

/** What LONGTASK_PROBE leaves on window: [startTime, duration] of every long task. */
type ProbedWindow = Window & { __longTasks?: [number, number][] };

export interface TraceBrowserOptions {
  /** A production build to serve as it is (see app-build.ts); default dist/, built when stale. */
  distDir?: string;
  /** How long the page may settle (lazy chunks, host probing) before the clock starts; default 1500 ms. */
  settleMs?: number;
}

export async function runTraceBrowserBench(trace: GeneratedTrace, options: TraceBrowserOptions = {}): Promise<TraceBrowserRow> {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-playground-bench-trace-'));
  const tracePath = join(folder, 'big.jsonl');
  const jsonPath = join(folder, 'big.json');
  writeFileSync(tracePath, trace.text);
  writeFileSync(jsonPath, trace.jsonArray);
  // Build dist/ when stale, then serve it without rebuilding.
  const server = await serveBuild(await currentBuild(options.distDir));
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US', serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.addInitScript(LONGTASK_PROBE);
    await page.goto(`${server.url}?host=worker#trace`);
    await page.getByTestId('trace-none').waitFor({ timeout: 60_000 });
    // Let the page settle (lazy chunks, host probing) before the clock starts.
    await page.waitForTimeout(options.settleMs ?? 1500);

    // Functions, not strings: playwright hands a function to the page over CDP, while a string is
    // eval'd by the page, which the app's CSP (script-src 'self', no 'unsafe-eval') refuses. The
    // functions avoid named inner functions (tsx would wrap them in a helper the page lacks).
    const now = () => page.evaluate(() => performance.now());
    const afterAFrame = () => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    const longestSince = (since: number) =>
      page.evaluate((from) => Math.max(0, ...(window as ProbedWindow).__longTasks!.filter(([start, duration]) => start + duration >= from).map(([, duration]) => duration)), since);

    const openStart = await now();
    await page.getByTestId('trace-file-input').setInputFiles(tracePath);
    await page.getByTestId('trace-events').filter({ hasText: String(trace.events) }).waitFor({ timeout: 600_000 });
    await page.getByRole('list', { name: 'Message log (trace)', exact: true }).getByRole('listitem').first().waitFor({ timeout: 60_000 });
    const openEnd = await now();
    // A frame later, so a long task that ended the load is reported.
    await afterAFrame();
    const openLongestTaskMs = await longestSince(openStart);
    if (process.env.TRACE_BENCH_TASKS) {
      const tasks = await page.evaluate((from) => (window as ProbedWindow).__longTasks!.filter(([start]) => start >= from).map(([start, duration]) => [Math.round(start - from), Math.round(duration)]), openStart);
      console.log('long tasks (start after choosing, ms):', JSON.stringify(tasks), 'log shown at', Math.round(openEnd - openStart));
    }

    // The first search over every frame (a slice per task), for the second-to-last message.
    const searchStart = await now();
    await page.getByTestId('find-search').fill(`message ${trace.messages - 2} `);
    await page.getByTestId('find-count').filter({ hasText: /^Showing 1 of / }).waitFor({ timeout: 120_000 });
    const searchEnd = await now();
    await afterAFrame();
    const searchLongestTaskMs = await longestSince(searchStart);

    // The baseline: the same content as one JSON array, parsed on the page's thread.
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-json';
      input.hidden = true;
      document.body.append(input);
    });
    await page.locator('#bench-json').setInputFiles(jsonPath);
    const json = await page.evaluate(async () => {
      const file = (document.getElementById('bench-json') as HTMLInputElement).files![0]!;
      const start = performance.now();
      const text = await file.text();
      const value = JSON.parse(text) as unknown[];
      const end = performance.now();
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)));
      const longest = Math.max(0, ...(window as ProbedWindow).__longTasks!.filter(([s, d]) => s + d >= start).map(([, d]) => d));
      return { wall: end - start, longest, length: value.length };
    });
    if (json.length !== trace.events + 1) throw new Error('the page lost events of the JSON array');
    await context.close();
    return { openLongestTaskMs, openWallMs: openEnd - openStart, jsonLongestTaskMs: json.longest, jsonWallMs: json.wall, searchLongestTaskMs, searchWallMs: searchEnd - searchStart };
  } finally {
    await browser.close();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export interface TraceBenchOptions extends TraceBrowserOptions {
  /** false: the Node rows only. */
  browser?: boolean;
  /** The generated trace's size; default 100,000 messages in about 100 MB. */
  messages?: number;
  targetBytes?: number;
  /** Interleaved Node runs; default 3. */
  nodeRuns?: number;
}

export async function runTraceBench(options: TraceBenchOptions = {}): Promise<TraceReport> {
  const trace = generateTrace(options.messages, options.targetBytes);
  const node = await runTraceNodeBench(trace, options.nodeRuns);
  const browser = options.browser === false ? null : await runTraceBrowserBench(trace, options);
  return { fileBytes: Buffer.byteLength(trace.text), messages: trace.messages, events: trace.events, node, browser };
}

export function formatTraceReport(report: TraceReport): string {
  const mb = (report.fileBytes / 1024 / 1024).toFixed(1);
  const lines = [
    `trace: ${mb} MB, ${report.messages} messages, ${report.events} events`,
    `Node, open (validate every line + cut and classify every frame): ${report.node.openMedianMs.toFixed(0)} ms; JSON.parse of one array: ${report.node.jsonParseMedianMs.toFixed(0)} ms; ${ratio(report.node.openMedianMs / report.node.jsonParseMedianMs)} (${report.node.entries} log entries)`,
    `Node, floor for any reader that shows messages (the array parsed, every chunk's base64 decoded, every message JSON.parse'd): ${report.node.messagesFloorMedianMs.toFixed(0)} ms; open vs that floor ${ratio(report.node.openMedianMs / report.node.messagesFloorMedianMs)}`,
  ];
  if (report.browser) {
    const b = report.browser;
    lines.push(
      `Chromium, trace view (worker): longest main-thread task ${b.openLongestTaskMs.toFixed(0)} ms, file chosen → log shown ${b.openWallMs.toFixed(0)} ms`,
      `Chromium, same content as plain JSON on the main thread: longest task ${b.jsonLongestTaskMs.toFixed(0)} ms, read + parse ${b.jsonWallMs.toFixed(0)} ms`,
      `longest task, trace view vs plain JSON: ${ratio(b.openLongestTaskMs / Math.max(1, b.jsonLongestTaskMs))}`,
      `Chromium, first search of the opened trace ("message ${report.messages - 2} ", every frame's JSON): longest task ${b.searchLongestTaskMs.toFixed(0)} ms, typed → count shown ${b.searchWallMs.toFixed(0)} ms`,
    );
  }
  return lines.join('\n');
}
