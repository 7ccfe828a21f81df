// The bench is part of the suite: `npm run bench -- --smoke --json` runs every section of the
// benchmark at a tiny size (bench/sizes.ts), in its own process exactly as a person runs it, on
// the production build the e2e global setup made (--dist: served as it is, never rebuilt). It
// fails when a section throws, leaves a section out, or returns no rows or a number that is not a
// measurement. It judges no timing: smoke numbers mean nothing (and a slow machine is not a bug).

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECTIONS, type BenchReport } from '../../bench/sections.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { distDir } from '../e2e/browser.ts';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runSmoke(dist: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    // tsx from node_modules directly: npx would only add its own start-up.
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'bench/run.ts', '--smoke', '--json', `--dist=${dist}`], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every number anywhere in `value`, with its path, for one check over the whole report. */
function numbersIn(value: unknown, path = 'report'): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => numbersIn(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => numbersIn(item, `${path}.${key}`));
  return [];
}

describe('npm run bench -- --smoke', () => {
  it('runs every section and reports every row with real measurements', async () => {
    const started = performance.now();
    const run = await runSmoke(distDir());
    // Reported, not asserted: the suite's time budget wants to know what this costs.
    console.log(`[bench-smoke] the smoke bench took ${Math.round(performance.now() - started)} ms`);
    expect(run.code, `the bench failed:\n${run.stderr.slice(-4000)}`).toBe(0);
    // --json: stdout is the one JSON object and nothing else.
    const report = JSON.parse(run.stdout) as BenchReport;
    expect(report.size).toBe('smoke');
    console.log(`[bench-smoke] sections: ${JSON.stringify(report.sectionMs)}`);
    expect(Object.keys(report.sectionMs)).toEqual([...SECTIONS]);

    // Every number is a measurement: finite and not negative (a longest task may be 0: none came).
    const numbers = numbersIn(report);
    expect(numbers.length).toBeGreaterThan(50);
    for (const [path, number] of numbers) expect(Number.isFinite(number) && number >= 0, `${path} = ${number}`).toBe(true);

    // framing: every workload kind through every reader.
    expect(report.framing.map((row) => `${row.workload} ${row.framing}`)).toEqual(
      ['300 x 1KiB / 4KiB chunks', '300 x 1KiB / 64B chunks', '64KiB x1 / 4KiB chunks', '64KiB x1 / 64KiB chunks'].flatMap((workload) =>
        ['content-length', 'ndjson', 'sse'].map((framing) => `${workload} ${framing}`),
      ),
    );
    for (const row of report.framing) for (const ms of [row.ms, row.jsonParseMs, row.decodeAndParseMs, row.sdkReadBufferMs]) expect(ms).toBeGreaterThan(0);

    // http: each client against each server.
    expect(report.http.map((row) => `${row.client}→${row.server}`)).toEqual(['sdk→sdk', 'ours→sdk', 'sdk→ours', 'ours→ours']);
    for (const row of report.http) {
      expect(row.p50Ms).toBeGreaterThan(0);
      expect(row.p99Ms).toBeGreaterThanOrEqual(row.p50Ms);
    }

    // hosts: all five, the browser ones included (Chromium is here: none may be skipped), and the floor.
    expect(report.hosts.map((row) => row.host)).toEqual(['sdk-stdio', 'client-stdio', 'tap-node', 'bridge-chromium', 'worker-chromium']);
    // The floor, and the echo server's share of the bridge row (tap times: 0.1 ms steps, so it may round to 0).
    expect(report.hostReferences.map((row) => row.host)).toEqual(['websocket-echo-chromium', 'bare-relay-chromium', 'bridge-server-span']);
    for (const row of [...report.hosts, ...report.hostReferences.slice(0, 2)]) expect(row.p50Ms).toBeGreaterThan(0);
    expect(report.hostReferences[2]!.p50Ms).toBeGreaterThanOrEqual(0);
    expect(report.hostReferences[2]!.p50Ms).toBeLessThan(report.hosts.find((row) => row.host === 'bridge-chromium')!.p50Ms);
    // Where the bridge's time goes (Linux): CPU per call by thread, each share positive, largest
    // first. (Which threads show is not required: at smoke size a thread's share is small enough
    // for the two sessions' noise to hide it.)
    const shares = report.bridgeCpu!.shares;
    expect(shares.length).toBeGreaterThan(0);
    for (const share of shares) expect(share.microsPerCall, share.group).toBeGreaterThan(0);
    expect(shares.map((share) => share.microsPerCall)).toEqual([...shares.map((share) => share.microsPerCall)].sort((a, b) => b - a));

    // exercise-run: the reference passed in the page and in the CLI, and both were timed.
    expect(report.exerciseRun.map((row) => row.exercise)).toEqual(['01-jsonrpc']);
    for (const row of report.exerciseRun) {
      expect(row.referencePassed).toBe(true);
      expect(row.browserMedianMs).toBeGreaterThan(0);
      // The examples' verdict comes before (or with) the end of the whole run.
      expect(row.browserAllMedianMs).toBeGreaterThanOrEqual(row.browserMedianMs);
      expect(row.cliMedianMs).toBeGreaterThan(0);
    }

    // page-load: the build's first-paint JavaScript, one timed load of each page, the editor seen.
    const pageLoad = report.pageLoad;
    expect(pageLoad.firstPaintJs.chunks.length).toBeGreaterThan(0);
    expect(pageLoad.firstPaintJs.totalGzipBytes).toBeGreaterThan(0);
    expect(pageLoad.networkJsFilesBeforeUsable.length).toBeGreaterThan(0);
    expect(pageLoad.usableSamplesMs).toHaveLength(1);
    expect(pageLoad.baselineSamplesMs).toHaveLength(1);
    expect(pageLoad.usableMedianMs).toBeGreaterThan(0);
    expect(pageLoad.baselineMedianMs).toBeGreaterThan(0);
    expect(pageLoad.editorMountedMedianMs).toBeGreaterThan(0);

    // trace: opened in Node and in the page, and searched there.
    const trace = report.trace;
    expect(trace.messages).toBe(2000);
    expect(trace.node.entries).toBeGreaterThan(0);
    expect(trace.node.openMedianMs).toBeGreaterThan(0);
    expect(trace.browser).not.toBeNull();
    expect(trace.browser!.openWallMs).toBeGreaterThan(0);
    expect(trace.browser!.searchWallMs).toBeGreaterThan(0);

    // room: both runs, and in each every report made was acknowledged and is in SQLite exactly once
    // (and the instructor's page drew every one of them, or the run would have failed).
    expect(report.room.map((run) => run.kind)).toEqual(['steady', 'restart']);
    for (const run of report.room) {
      expect(run.made).toBeGreaterThan(0);
      expect([run.acked, run.stored]).toEqual([run.made, run.made]);
      expect(run.p99Ms).toBeGreaterThanOrEqual(run.p50Ms);
    }
  });
});
