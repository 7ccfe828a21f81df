// The sections of `npm run bench`, in the order they run, and the shape of its `--json` report:
// apart from bench/run.ts so a test can read them without starting a run.

import type { ExerciseRunRow } from './exercise-run.ts';
import type { FramingRow } from './framing.ts';
import type { HostRow } from './hosts.ts';
import type { CpuShares } from './thread-cpu.ts';
import type { HttpRow } from './http.ts';
import type { PageLoadReport } from './page-load.ts';
import type { RoomLoadRun } from './room-load.ts';
import type { TraceReport } from './trace.ts';

export interface BenchReport {
  size: 'full' | 'smoke';
  /** Wall time of each section that ran, ms. */
  sectionMs: Partial<Record<Section, number>>;
  framing: FramingRow[];
  hosts: HostRow[];
  /** Not hosts: measurements that explain them (Chromium's bare WebSocket round trip). */
  hostReferences: HostRow<string>[];
  /** CPU per bridge call by process and thread, from a separate run (Linux; absent elsewhere). */
  bridgeCpu?: { calls: number; shares: CpuShares };
  exerciseRun: ExerciseRunRow[];
  pageLoad: PageLoadReport;
  http: HttpRow[];
  trace: TraceReport;
  /** The workshop room under a class's load: steady, and across a SIGKILLed and restarted bridge. */
  room: RoomLoadRun[];
}

export const SECTIONS = ['framing', 'http', 'hosts', 'exercise-run', 'page-load', 'trace', 'room'] as const;
export type Section = (typeof SECTIONS)[number];
