// The workshop room under a class's load: N simulated attendees join a real shared bridge (its own
// Node process, `npm start -- --host` bound to loopback, its SQLite file) and report every R ms —
// through the page's own outbox (src/app/room/room-outbox.ts) and request code, each holding its
// presence stream — while the instructor's page is open in Chromium on `#room`, drawing the grid
// from every snapshot, and a plain stream reader reads the same snapshots. Run twice: steady, and
// with the bridge SIGKILLed halfway and started again on the same port and file.
//
// Measured: the time from a report being made (the page's outbox takes it) to the instructor's
// grid showing it in the page (and to the snapshot stream carrying it), p50 and p99; the page's
// longest task; the bridge's CPU and largest memory; and whether the reports in SQLite are exactly
// those acknowledged (and every report made was acknowledged).

import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../tests/e2e/chromium.ts';
import { currentBuild } from './app-build.ts';
import { fetchRoomKey, joinRoom, readAttendeeStream, readInstructorStream, sendReports } from '../src/app/room/room-client.ts';
import { RoomOutbox } from '../src/app/room/room-outbox.ts';
import type { RoomMembership } from '../src/runtime/room-membership.ts';
import type { RoomSnapshot } from '../src/runtime/room-messages.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';

export interface RoomLoadOptions {
  /** Simulated attendees (default 200). */
  attendees?: number;
  /** How long each run reports (default 300 s). */
  seconds?: number;
  /** Each attendee makes a report this often (default 2,000 ms). */
  reportEveryMs?: number;
  /** The built app the bridge serves (default: dist/, built when stale). */
  distDir?: string;
}

export interface RoomLoadRun {
  kind: 'steady' | 'restart';
  attendees: number;
  /** How long they reported (a restart run reports a little longer: the room's start is not instant). */
  seconds: number;
  /** Reports the attendees' pages made. */
  made: number;
  /** Reports the room acknowledged (each counted once). */
  acked: number;
  /** Reports in the SQLite file at the end. */
  stored: number;
  /** From a report made to the instructor's page showing it in the grid. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From a report made to the snapshot stream carrying it (what the page gets, before drawing). */
  streamP50Ms: number;
  streamP99Ms: number;
  /** The instructor page's longest task while the class reported. */
  pageLongestTaskMs: number;
  /** The room process's CPU over the run (both processes' when restarted), and its share of one core. */
  bridgeCpuMs: number;
  bridgeCpuShare: number;
  bridgeRssMaxMb: number;
}

type Plan = Required<Omit<RoomLoadOptions, 'distDir'>> & { distDir: string };

export async function runRoomLoadBench(options: RoomLoadOptions = {}): Promise<RoomLoadRun[]> {
  const plan = { attendees: options.attendees ?? 200, seconds: options.seconds ?? 300, reportEveryMs: options.reportEveryMs ?? 2_000, distDir: await currentBuild(options.distDir) };
  const browser = await launchChromium();
  try {
    return [await runOnce(plan, 'steady', browser), await runOnce(plan, 'restart', browser)];
  } finally {
    await browser.close();
  }
}

interface Bridge {
  child: ChildProcess;
  port: number;
  sample: { cpuMs: number; rssMb: number };
  rssMaxMb: number;
  exited: Promise<void>;
}

async function startBridge(file: string, port: number, distDir: string): Promise<Bridge> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'bench', 'room-load-server.ts'), String(port), file, distDir], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolve, reject) => {
    const bridge: Partial<Bridge> = { child, sample: { cpuMs: 0, rssMb: 0 }, rssMaxMb: 0, exited };
    child.once('error', reject);
    void exited.then(() => reject(new Error('the room process ended before it listened')));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { port?: number; cpuMs?: number; rssMb?: number };
      if (message.port !== undefined) {
        bridge.port = message.port;
        resolve(bridge as Bridge);
      } else if (message.cpuMs !== undefined && message.rssMb !== undefined) {
        bridge.sample = { cpuMs: message.cpuMs, rssMb: message.rssMb };
        bridge.rssMaxMb = Math.max(bridge.rssMaxMb ?? 0, message.rssMb);
      }
    });
  });
}

async function runOnce(plan: Plan, kind: RoomLoadRun['kind'], browser: Browser): Promise<RoomLoadRun> {
  const folder = await mkdtemp(join(tmpdir(), 'room-load-'));
  const file = join(folder, 'room.sqlite');
  let bridge = await startBridge(file, 0, plan.distDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const origin = `http://127.0.0.1:${bridge.port}`;
  const deps = { origin };
  const stop = new AbortController();
  // Every attendee's stream loop (and the instructor's) listens for the end of the run: one each.
  setMaxListeners(plan.attendees + 10, stop.signal);
  let rssMax = 0;
  try {
    const access = await fetchRoomKey(deps);
    if (access === null) throw new Error('the room gave no key to this machine');

    // Each report k of an attendee sets its exercise-1 count to k: the grid shows report k once
    // the snapshot's count reaches k.
    const made = new Map<string, number[]>();
    const latencies: number[] = [];
    const seen = new Map<string, number>();
    const onSnapshot = (snapshot: RoomSnapshot) => {
      const now = Date.now();
      for (const attendee of snapshot.attendees) {
        const shown = attendee.exercises['1']?.passed ?? 0;
        const times = made.get(attendee.attendee) ?? [];
        for (let k = (seen.get(attendee.attendee) ?? 0) + 1; k <= shown && k <= times.length; k++) latencies.push(now - times[k - 1]!);
        seen.set(attendee.attendee, Math.max(seen.get(attendee.attendee) ?? 0, Math.min(shown, times.length)));
      }
    };
    // A stream read until it ends, then again after a pause (the room restarts), until the run
    // stops. Each attempt has its own signal: one shared by every attempt would collect an abort
    // listener per reconnection.
    const keepReading = (read: (signal: AbortSignal) => Promise<unknown>) =>
      void (async () => {
        while (!stop.signal.aborted) {
          const attempt = new AbortController();
          const abort = () => attempt.abort();
          stop.signal.addEventListener('abort', abort, { once: true });
          await read(attempt.signal).catch(() => {});
          stop.signal.removeEventListener('abort', abort);
          if (!stop.signal.aborted) await delay(200);
        }
      })();
    keepReading((signal) => readInstructorStream(access.key, deps, onSnapshot, signal));
    // The instructor's page, as the instructor opens it: it finds its key and draws the grid.
    const page = await context.newPage();
    await page.goto(`${origin}/#room`);
    await page.locator('.room__code').waitFor({ timeout: 60_000 });
    await watchGrid(page);

    const members: { membership: RoomMembership; outbox: RoomOutbox; acked: Set<number> }[] = [];
    for (let i = 0; i < plan.attendees; i++) {
      const joined = await joinRoom(access.code, `attendee ${i + 1}`, deps);
      if (!joined.ok) throw new Error(`attendee ${i + 1} could not join: ${joined.detail}`);
      const membership = joined.membership;
      const acked = new Set<number>();
      const outbox = new RoomOutbox({
        storage: null,
        send: async (reports) => {
          const outcome = await sendReports(membership, reports, deps);
          if (outcome.kind === 'acked') for (const seq of outcome.seqs) acked.add(seq);
          return outcome;
        },
        now: () => Date.now(),
        nextSeq: 1,
        saveNextSeq: () => {},
        onLeft: () => {
          throw new Error(`the room forgot attendee ${i + 1}`);
        },
        maxBackoffMs: 2_000,
      });
      made.set(membership.attendee, []);
      members.push({ membership, outbox, acked });
      keepReading((signal) => readAttendeeStream(membership, deps, () => {}, signal));
    }

    // The room process's CPU from here: its start (tsx compiling it) and the joins are not the load.
    const cpuAtStart = bridge.sample.cpuMs;
    const reportingSince = performance.now();
    // Reporting: each attendee on its own clock, spread over the first interval.
    const timers = members.map((member, i) =>
      setTimeout(() => {
        const tick = () => {
          const times = made.get(member.membership.attendee)!;
          // The wall clock: the page measures on the same one, in another process.
          times.push(Date.now());
          member.outbox.add({ station: 'exercise-1', run: { exercise: 1, passed: times.length, total: 100_000 } });
        };
        tick();
        timers[i] = setInterval(tick, plan.reportEveryMs);
      }, (plan.reportEveryMs * i) / plan.attendees),
    );
    /** The first process's CPU, when it is killed halfway (the second one's start is counted: a restart costs it). */
    let cpuFirst = 0;
    if (kind === 'restart') {
      await delay((plan.seconds * 1000) / 2);
      // SIGKILL: whatever was in flight is lost to the room; the pages must send it again.
      bridge.child.kill('SIGKILL');
      await bridge.exited;
      cpuFirst = bridge.sample.cpuMs - cpuAtStart;
      rssMax = bridge.rssMaxMb;
      await delay(1_000);
      bridge = await startBridge(file, bridge.port, plan.distDir);
      await delay((plan.seconds * 1000) / 2 - 1_000);
    } else {
      await delay(plan.seconds * 1000);
    }
    for (const timer of timers) clearTimeout(timer as NodeJS.Timeout);
    const reportingMs = performance.now() - reportingSince;
    // Everything made must reach the room: wait for every outbox to drain, then for the grid.
    const total = () => [...made.values()].reduce((sum, times) => sum + times.length, 0);
    await waitFor(() => members.every((member) => member.outbox.snapshot.pending === 0), 60_000, 'the outboxes to drain');
    await waitFor(() => latencies.length >= total(), 30_000, 'the stream to carry every report');
    const names = new Map(members.map((member) => [member.membership.name, member.membership.attendee]));
    let shown = await gridShown(page);
    for (const until = performance.now() + 60_000; shown.events.length < total() && performance.now() < until; shown = await gridShown(page)) await delay(500);
    if (shown.events.length < total()) throw new Error(`the instructor's page showed ${shown.events.length} of ${total()} reports`);
    const pageLatencies = shown.events.map(([name, k, at]) => at - made.get(names.get(name)!)![k - 1]!).sort((a, b) => a - b);
    const acked = members.reduce((sum, member) => sum + member.acked.size, 0);
    const snapshot = (await (await fetch(`${origin}/__room/snapshot`, { headers: { 'X-MCP-Room-Request': '1', Authorization: `Bearer ${access.key}` } })).json()) as RoomSnapshot;
    const cpuMs = kind === 'restart' ? cpuFirst + bridge.sample.cpuMs : bridge.sample.cpuMs - cpuAtStart;
    const streamSorted = [...latencies].sort((a, b) => a - b);
    return {
      kind,
      attendees: plan.attendees,
      seconds: Math.round(reportingMs / 100) / 10,
      made: total(),
      acked,
      stored: snapshot.reports,
      p50Ms: percentile(pageLatencies, 0.5),
      p99Ms: percentile(pageLatencies, 0.99),
      maxMs: pageLatencies.at(-1) ?? 0,
      streamP50Ms: percentile(streamSorted, 0.5),
      streamP99Ms: percentile(streamSorted, 0.99),
      pageLongestTaskMs: shown.longestTaskMs,
      bridgeCpuMs: cpuMs,
      bridgeCpuShare: cpuMs / reportingMs,
      bridgeRssMaxMb: Math.max(rssMax, bridge.rssMaxMb),
    };
  } finally {
    stop.abort();
    await context.close();
    bridge.child.kill('SIGTERM');
    await bridge.exited;
    await rm(folder, { recursive: true, force: true });
  }
}

export function formatRoomLoadReport(runs: readonly RoomLoadRun[]): string {
  const header = 'run      attendees  seconds  made    acked   in SQLite  report→page grid p50  p99      max      (stream p50  p99)     page longest task  bridge CPU (share of a core)  bridge RSS max';
  const rows = runs.map((run) =>
    [
      run.kind.padEnd(8),
      String(run.attendees).padEnd(10),
      String(run.seconds).padEnd(8),
      String(run.made).padEnd(7),
      String(run.acked).padEnd(7),
      String(run.stored).padEnd(10),
      `${run.p50Ms.toFixed(0)} ms`.padEnd(21),
      `${run.p99Ms.toFixed(0)} ms`.padEnd(8),
      `${run.maxMs.toFixed(0)} ms`.padEnd(8),
      `(${run.streamP50Ms.toFixed(0)} ms`.padEnd(12),
      `${run.streamP99Ms.toFixed(0)} ms)`.padEnd(9),
      `${run.pageLongestTaskMs.toFixed(0)} ms`.padEnd(18),
      `${(run.bridgeCpuMs / 1000).toFixed(1)} s (${(run.bridgeCpuShare * 100).toFixed(1)} %)`.padEnd(29),
      `${run.bridgeRssMaxMb.toFixed(0)} MB`,
    ].join(' '),
  );
  const verdicts = runs.map((run) => `${run.kind}: ${run.stored === run.acked && run.acked === run.made ? 'every report made was acknowledged and is in SQLite once' : `MISMATCH made ${run.made}, acked ${run.acked}, stored ${run.stored}`}`);
  return [header, ...rows, ...verdicts].join('\n');
}

/**
 * Watch the instructor's grid in the page: each time it changes, every row whose exercise-1 count
 * went up records when (report k of an attendee sets that count to k), and long tasks are timed.
 * A string, not a function: tsx wraps named inner functions in a helper (__name) that does not
 * exist in the page; evaluated over CDP, so the page's CSP does not apply (see page-load.ts).
 */
const WATCH_GRID = `(() => {
  const seen = new Map();
  const events = [];
  let longest = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  }).observe({ type: 'longtask' });
  const scan = () => {
    const now = Date.now();
    for (const row of document.querySelectorAll('.room__grid tbody tr')) {
      const name = row.querySelector('.room__name')?.textContent ?? '';
      const count = Number(/^(\\d+)\\//.exec(row.children[3]?.textContent ?? '')?.[1] ?? 0);
      const before = seen.get(name) ?? 0;
      for (let k = before + 1; k <= count; k++) events.push([name, k, now]);
      if (count > before) seen.set(name, count);
    }
  };
  new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
  globalThis.__roomLoad = { events, longest: () => longest };
})()`;

async function watchGrid(page: Page): Promise<void> {
  await page.evaluate(WATCH_GRID);
}

async function gridShown(page: Page): Promise<{ events: [string, number, number][]; longestTaskMs: number }> {
  return page.evaluate(() => {
    const watch = (globalThis as Record<string, unknown>).__roomLoad as { events: [string, number, number][]; longest: () => number };
    return { events: watch.events, longestTaskMs: watch.longest() };
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(test: () => boolean, ms: number, what: string): Promise<void> {
  const until = performance.now() + ms;
  while (!test()) {
    if (performance.now() > until) throw new Error(`the room load bench gave up waiting for ${what}`);
    await delay(100);
  }
}
