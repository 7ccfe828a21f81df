// Writes traces: one ASCII-only JSON object per line, "\n" after each, header first. ASCII only,
// like the tap's lines, so no tool on the way can split or re-decode a character.

import type { Trace, TraceEvent, TraceHeader } from './trace-format.ts';

/** The header as one line, without its "\n". Keys in a fixed, readable order. */
export function serializeTraceHeader(header: TraceHeader): string {
  const { format, version, mode, framing, framingSource, started, recorder, ...rest } = header;
  return toAsciiJson({ format, version, mode, framing, framingSource, started, recorder, ...rest });
}

/** One event as one line, without its "\n". `tap, ev, t` first, as the tap prints them. */
export function serializeTraceEvent(event: TraceEvent): string {
  const { tap, ev, t, ...rest } = event;
  return toAsciiJson({ tap, ev, t, ...rest });
}

/** A whole trace as the text of a file. */
export function serializeTrace(trace: Trace): string {
  let text = `${serializeTraceHeader(trace.header)}\n`;
  for (const event of trace.events) text += `${serializeTraceEvent(event)}\n`;
  return text;
}

// JSON.stringify escapes control characters; escaping everything above 0x7E too leaves pure ASCII.
function toAsciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
