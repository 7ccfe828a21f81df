// What every recording mode shares: one clock for the events' `t` (milliseconds since the header's
// `started`), the recorder's name, and the trace file of a plain stdio recording, which is the
// tap as it always was (line protocol on its own stdio) plus every event written to the file.

import { performance } from 'node:perf_hooks';
import type { TapEvent } from '../src/runtime/tap-protocol.ts';
import { TRACE_FORMAT, TRACE_VERSION } from '../src/runtime/trace/trace-format.ts';
import type { StdioFraming } from './tap-args.ts';
import { openTraceFile, type TraceFile } from './trace-file.ts';

export const RECORDER = 'mcp-playground tap';

export interface TraceClock {
  /** ISO time the recording started. */
  started: string;
  /** Milliseconds since then. */
  now(): number;
}

export function startClock(): TraceClock {
  const origin = performance.now();
  return { started: new Date().toISOString(), now: () => performance.now() - origin };
}

/** How the stdio tap (tap.ts) records: its clock, and a hook for each event and for the end. */
export interface StdioRecording {
  now(): number;
  onEvent(event: TapEvent, line: string): void;
  /** Flush and close the file; safe to call more than once. */
  finish(): void;
  readonly file: TraceFile;
}

export function startStdioRecording(options: { record: string; framing: StdioFraming | null; argv: string[] }): StdioRecording {
  const clock = startClock();
  const file = openTraceFile(
    options.record,
    { format: TRACE_FORMAT, version: TRACE_VERSION, mode: 'stdio', started: clock.started, recorder: RECORDER, program: options.argv },
    options.framing,
  );
  // A tap event is a valid trace event as it is (trace-format.ts).
  return { now: clock.now, onEvent: (event, line) => file.add(event, line), finish: () => file.close(), file };
}

/** One line for a person, on stderr, when a recording ends. */
export function summaryLine(file: TraceFile): string {
  return `[tap] recorded ${file.eventCount} events, ${file.payloadBytes} bytes of messages, to ${file.path}\n`;
}
