// How big each section of `npm run bench` runs. FULL is the benchmark: the sizes its goals and
// notes were measured at. SMOKE (`--smoke`) only proves that every section still runs end to end
// and prints its table, at the smallest sizes that still go through every step (a warm-up, a
// timed sample, every workload kind, the browser parts): its numbers mean nothing, and nothing
// checks them against a goal. The suite runs it (tests/performance/bench-smoke.test.ts).

import type { ExerciseRunOptions } from './exercise-run.ts';
import type { FramingOptions } from './framing.ts';
import { DEFAULT_PLAN, PRIMING_PLAN, type CallPlan } from './hosts-timing.ts';
import { DEFAULT_HTTP_PLAN, type HttpPlan } from './http.ts';
import type { PageLoadOptions } from './page-load.ts';
import type { TraceBenchOptions } from './trace.ts';
import type { RoomLoadOptions } from './room-load.ts';

export interface BenchSizes {
  framing: FramingOptions;
  http: HttpPlan;
  hosts: { plan: CallPlan; priming: CallPlan };
  exerciseRun: ExerciseRunOptions;
  pageLoad: PageLoadOptions;
  trace: TraceBenchOptions;
  room: RoomLoadOptions;
}

/** Every section's own defaults. */
export const FULL_SIZES: BenchSizes = {
  framing: {},
  http: DEFAULT_HTTP_PLAN,
  hosts: { plan: DEFAULT_PLAN, priming: PRIMING_PLAN },
  exerciseRun: {},
  pageLoad: {},
  trace: {},
  // 200 attendees reporting every 2 s for 5 minutes, twice (steady, and across a restart): 10 minutes.
  room: {},
};

export const SMOKE_SIZES: BenchSizes = {
  // 300 messages keep all three message kinds; 64 blocks of ~1 KB make the "big" result 64 KiB.
  framing: { repeats: 1, warmUpRuns: 0, sizes: { kibMessages: 300, bigBlocks: 64 } },
  http: { warmUp: 2, calls: 5 },
  hosts: { plan: { warmUp: 2, calls: 5 }, priming: { warmUp: 1, calls: 0 } },
  // One exercise, one untimed run (it waits for the spec worker) and two timed ones, one CLI check.
  exerciseRun: { exercises: ['01-jsonrpc'], browserRuns: 2, browserWarmupRuns: 1, cliRuns: 1, settleMs: 0 },
  pageLoad: { runs: 1, warmUp: false },
  // 2,000 messages (a tenth still split across two chunks) in about 1 MB.
  trace: { messages: 2000, targetBytes: 1024 * 1024, nodeRuns: 1, settleMs: 0 },
  // Three attendees for two seconds: still a restart in the middle, and every report checked.
  room: { attendees: 3, seconds: 2, reportEveryMs: 400 },
};
