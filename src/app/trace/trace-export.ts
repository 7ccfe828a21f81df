// "Save as trace": the live session's latest run in the trace format (docs/trace-format), written
// with the format's own serialiser, so what the page saves the page (and any reader) can open.

import { serializeTrace, TRACE_FORMAT, TRACE_VERSION, type Trace, type TraceEvent } from '../../runtime/trace/index.ts';
import type { RunRecording } from '../live-session/live-session-store.ts';

export const TRACE_RECORDER = 'mcp-playground page';

export function traceOfRun(run: RunRecording): Trace {
  const spawn = run.events.find((event) => event.ev === 'spawn');
  return {
    header: {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      mode: 'stdio',
      framing: run.framing,
      // The learner chose the framing before starting the server: it is known, not guessed.
      framingSource: 'given',
      started: run.started,
      recorder: `${TRACE_RECORDER} (${run.host} host)${run.omitted > 0 ? `, ${run.omitted} events left out` : ''}`,
      program: spawn?.ev === 'spawn' && spawn.argv.length > 0 ? spawn.argv : ['echo-server'],
    },
    // The tap's events are trace events as they are (the format was made from them).
    events: run.events as TraceEvent[],
  };
}

export function traceText(run: RunRecording): string {
  return serializeTrace(traceOfRun(run));
}

/**
 * A Streamable HTTP session as a trace (mode "http"): the relayed connections' tap events as they
 * are (open, c2s/s2c with their `conn`, close). For the HTTP views to save what they recorded.
 */
export function httpTraceText(recording: { started: string; host: string; program: readonly string[]; events: readonly unknown[] }): string {
  return serializeTrace({
    header: {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      mode: 'http',
      framing: 'http',
      framingSource: 'given',
      started: recording.started,
      recorder: `${TRACE_RECORDER} (${recording.host} host)`,
      ...(recording.program.length > 0 ? { program: [...recording.program] } : {}),
    },
    events: recording.events as TraceEvent[],
  });
}

/** `mcp-trace-2026-12-01T16-00-00.jsonl`: sortable, and no characters a file system refuses. */
export function traceFileName(started: string): string {
  return `mcp-trace-${started.replace(/\.\d+Z$/, 'Z').replace(/[:]/g, '-')}.jsonl`;
}
