// `npm run bench`: every benchmark of the project, each printed as ratios against a baseline
// measured in the same run on the same machine.
//
//   npm run bench                          every section, full size (minutes)
//   npm run bench -- --only=trace,http     just those sections
//   npm run bench -- --smoke               every section at a tiny size (sizes.ts): proves each one
//                                          still runs and prints its table; the numbers mean nothing
//   npm run --silent bench -- --json       one JSON object on stdout instead of the tables (anything
//                                          else the run prints goes to stderr)
//   npm run bench -- --dist=DIR            load this production build as it is (no build, no
//                                          program rebuild); default dist/, built when stale
//
// The browser sections load the production build served as `npm start` serves it, with its CSP.
// The suite runs `--smoke --json` (tests/performance/bench-smoke.test.ts), so no section can rot.

import { runFramingBench } from './framing.ts';
import { formatHostsReport, runHostsBench } from './hosts.ts';
import { formatExerciseRunReport, runExerciseRunBench } from './exercise-run.ts';
import { formatPageLoadReport, runPageLoadBench } from './page-load.ts';
import { formatTable, ratio, verdict } from './report.ts';
import { runHttpBench } from './http.ts';
import { SECTIONS, type BenchReport, type Section } from './sections.ts';
import { formatRoomLoadReport, runRoomLoadBench } from './room-load.ts';
import { FULL_SIZES, SMOKE_SIZES } from './sizes.ts';
import { formatTraceReport, runTraceBench, TRACE_LONGEST_TASK_GOAL_MS, TRACE_OPEN_GOAL_VS_FLOOR } from './trace.ts';

// Issue 25's goal: every reader within 1.5× of what any byte reader must do (UTF-8 decode, then
// JSON.parse, of the same bodies), and faster than the SDK's own reader on the same bytes.
const FRAMING_GOAL_VS_DECODE_AND_PARSE = 1.5;

/** `--only=page-load,framing` runs just those sections (the others are left out of --json too). */
function chosenSections(argv: readonly string[]): Set<Section> {
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  if (only === undefined) return new Set(SECTIONS);
  const names = only.split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown bench section ${unknown.join(', ')}: use ${SECTIONS.join(', ')}`);
  return new Set(names as Section[]);
}

/** `--dist=DIR`: the build to load as it is. */
function chosenDist(argv: readonly string[]): string | undefined {
  const dist = argv.find((arg) => arg.startsWith('--dist='))?.slice('--dist='.length);
  if (dist === '') throw new Error('--dist= needs a folder');
  return dist;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const smoke = process.argv.includes('--smoke');
  const sizes = smoke ? SMOKE_SIZES : FULL_SIZES;
  const distDir = chosenDist(process.argv);
  const stdout = console.log.bind(console);
  // In JSON mode stdout carries the JSON alone: whatever else prints (a build's log) goes to stderr.
  if (json) console.log = console.error.bind(console);
  const log = (line: string) => {
    if (!json) stdout(line);
  };
  const sections = chosenSections(process.argv);
  const report: Partial<BenchReport> = { size: smoke ? 'smoke' : 'full' };
  // Each section's wall time, for the record (what the smoke run costs the suite); never judged.
  const sectionMs: Partial<Record<Section, number>> = {};
  let running: { section: Section; since: number } | null = null;
  const end = () => {
    if (running) sectionMs[running.section] = Math.round(performance.now() - running.since);
    running = null;
  };
  const begin = (section: Section) => {
    end();
    running = { section, since: performance.now() };
  };
  if (smoke) log('SMOKE RUN (--smoke): every section at a tiny size, to show it runs; the numbers below mean nothing');

  if (sections.has('framing')) {
    begin('framing');
    log('Framing readers: our readers vs JSON.parse alone (the floor), UTF-8 decode + JSON.parse, and the official SDK reader');
    log('(SDK reader: its stdio ReadBuffer for the stdio rows; for the sse row, TextDecoder + eventsource-parser, as its HTTP client runs)');
    const framing = await runFramingBench(sizes.framing);
    report.framing = framing;
    log(
      formatTable(
        ['workload', 'framing', 'ms', 'JSON.parse ms', 'decode+parse ms', 'SDK reader ms', '× JSON.parse', '× decode+parse', '× SDK', 'goal'],
        framing.map((row) => {
          const vsFloor = row.ms / row.decodeAndParseMs;
          const vsSdk = row.ms / row.sdkReadBufferMs;
          const met = vsFloor <= FRAMING_GOAL_VS_DECODE_AND_PARSE && vsSdk < 1;
          return [
            row.workload,
            row.framing,
            row.ms.toFixed(1),
            row.jsonParseMs.toFixed(1),
            row.decodeAndParseMs.toFixed(1),
            row.sdkReadBufferMs.toFixed(1),
            ratio(row.ms / row.jsonParseMs),
            ratio(vsFloor),
            ratio(vsSdk),
            verdict(met, !smoke, vsSdk < 1 ? 'SDK met, decode+parse MISSED' : vsFloor <= FRAMING_GOAL_VS_DECODE_AND_PARSE ? 'decode+parse met, SDK MISSED' : 'MISSED'),
          ];
        }),
      ),
    );
    log(`goal: every reader ≤ ${FRAMING_GOAL_VS_DECODE_AND_PARSE}× decode+parse and faster than the SDK's reader`);
    // Why the floor is decode+parse and not JSON.parse alone: a reader must turn UTF-8 bytes into a
    // JavaScript string before JSON.parse can run, and for CJK-heavy text that decode alone costs
    // more than the parse (measured: 4 MiB, TextDecoder 36 ms vs JSON.parse 9 ms on Node 20; 17 vs
    // 8 ms on Node 22). The × JSON.parse column stays for the record.
    log('note: "decode+parse" is the floor any byte reader has: UTF-8 decoding of CJK text costs more than JSON.parse itself');
    log('');
  }

  if (sections.has('http')) {
    begin('http');
    log(`Streamable HTTP: one echo tools/call round trip on loopback, ${sizes.http.calls} calls, each client against each server`);
    const http = await runHttpBench(sizes.http);
    report.http = http;
    const baseline = http.find((row) => row.client === 'sdk' && row.server === 'sdk')!;
    log(
      formatTable(
        ['client', 'server', 'p50 ms', 'p99 ms', '× SDK→SDK p50', '× SDK→SDK p99'],
        http.map((row) => [row.client, row.server, row.p50Ms.toFixed(2), row.p99Ms.toFixed(2), ratio(row.p50Ms / baseline.p50Ms), ratio(row.p99Ms / baseline.p99Ms)]),
      ),
    );
    const pairs = (side: 'client' | 'server') => {
      const ours = http.filter((row) => row[side] === 'ours').reduce((sum, row) => sum + row.p50Ms, 0);
      const sdk = http.filter((row) => row[side] === 'sdk').reduce((sum, row) => sum + row.p50Ms, 0);
      return ours / sdk;
    };
    log(`our server vs the SDK server (same clients, p50): ${ratio(pairs('server'))}; our client vs the SDK client (same servers, p50): ${ratio(pairs('client'))}`);
    log('goal: both ≤ 1.00×');
    log('');
  }

  if (sections.has('hosts')) {
    begin('hosts');
    log('Live hosts: one echo tools/call round trip through each host, vs the official SDK client over stdio');
    const hosts = await runHostsBench(sizes.hosts.plan, sizes.hosts.priming);
    report.hosts = hosts.rows;
    report.hostReferences = hosts.references;
    if (hosts.bridgeCpu) report.bridgeCpu = hosts.bridgeCpu;
    log(formatHostsReport(hosts, sizes.hosts.plan, !smoke));
    log('');
  }

  if (sections.has('exercise-run')) {
    begin('exercise-run');
    log('Exercise run: pressing Run in the page until the results show, vs the CLI on the same spec (reference solution)');
    const exerciseRun = await runExerciseRunBench({ ...sizes.exerciseRun, distDir });
    report.exerciseRun = exerciseRun;
    log(formatExerciseRunReport(exerciseRun, !smoke));
    log('');
  }

  if (sections.has('page-load')) {
    begin('page-load');
    log('Page load: the production build served by npm start, headless Chromium, vs a blank HTML page from the same server');
    const pageLoad = await runPageLoadBench({ ...sizes.pageLoad, distDir });
    report.pageLoad = pageLoad;
    log(formatPageLoadReport(pageLoad));
  }

  if (sections.has('trace')) {
    begin('trace');
    log('');
    log('Opening a large generated trace: the page\'s opening code vs JSON.parse of the same content as one array (Node),');
    log('and in Chromium the longest main-thread task while the trace view opens it vs the page JSON.parse-ing it as plain JSON');
    const trace = await runTraceBench({ ...sizes.trace, distDir });
    report.trace = trace;
    log(formatTraceReport(trace));
    const overFloor = trace.node.openMedianMs / trace.node.messagesFloorMedianMs;
    log(`goal: opening within ${TRACE_OPEN_GOAL_VS_FLOOR}× the floor of a reader that only shows messages: ${verdict(overFloor <= TRACE_OPEN_GOAL_VS_FLOOR, !smoke)}`);
    if (trace.browser) {
      const share = trace.browser.openLongestTaskMs / Math.max(1, trace.browser.jsonLongestTaskMs);
      log(`goal: the trace view's longest main-thread task at most half of plain JSON's (which blocks for the whole parse): ${verdict(share <= 0.5, !smoke)}`);
      const longest = Math.max(trace.browser.openLongestTaskMs, trace.browser.searchLongestTaskMs);
      log(`goal: the page's longest task while opening and searching at most ${TRACE_LONGEST_TASK_GOAL_MS} ms: ${verdict(longest <= TRACE_LONGEST_TASK_GOAL_MS, !smoke)}`);
    }
  }

  if (sections.has('room')) {
    begin('room');
    log('');
    log('The workshop room: simulated attendees report through the page\'s own outbox to a real shared bridge (HTTP, SQLite) while');
    log("the instructor's page is open in Chromium on #room; steady, then with the bridge SIGKILLed halfway and restarted");
    const room = await runRoomLoadBench({ ...sizes.room, distDir });
    report.room = room;
    log(formatRoomLoadReport(room));
  }

  end();
  report.sectionMs = sectionMs;
  log('');
  log(`section wall times: ${Object.entries(sectionMs).map(([section, ms]) => `${section} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  if (json) stdout(JSON.stringify(report));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
