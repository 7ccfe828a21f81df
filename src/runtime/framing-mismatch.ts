// What a stdio server says when the client's first line shows the other framing. A server that
// reads the wrong framing waits forever (a JSON line is not a header block; a header line is not
// JSON), and the client waits with it: one line on stderr naming the flag that fits saves that
// silence. Pure, so it is tested without spawning anything.

import type { FramingName } from '../protocol/framing/types.ts';
import { guessFraming } from './trace/framing-guess.ts';

/** Only the stream's first line is judged: a client speaks one framing from its first byte. */
export const MAX_FIRST_LINE_BYTES = 256;

const FLAG: Record<FramingName, string> = {
  'content-length': '--framing=content-length',
  ndjson: '--framing=ndjson (the default)',
};

const DESCRIBED: Record<FramingName, string> = {
  'content-length': 'Content-Length frames (the chapter\'s framing)',
  ndjson: 'newline-delimited JSON (the MCP specification\'s stdio transport)',
};

/**
 * The hint for a first line that is not in `expected`'s framing, or null when it is (or shows
 * nothing either way: a blank line, or text that is neither a header nor JSON).
 */
export function framingMismatchHint(expected: FramingName, firstLine: Uint8Array): string | null {
  const seen = guessFraming(firstLine);
  if (seen === null || seen === expected) return null;
  // guessFraming calls anything that is not a header "ndjson"; only a line that starts like JSON
  // is evidence of a JSON-speaking client.
  if (seen === 'ndjson' && !startsLikeJson(firstLine)) return null;
  return `the client seems to speak ${DESCRIBED[seen]}, but this server reads ${DESCRIBED[expected]}: start it with ${FLAG[seen]}`;
}

function startsLikeJson(line: Uint8Array): boolean {
  for (const byte of line) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a) continue;
    return byte === 0x7b /* { */ || byte === 0x5b /* [ */;
  }
  return false;
}

/**
 * Collects a stream's first line across chunks and judges it once: `push` returns the hint the
 * moment the line is complete (or MAX_FIRST_LINE_BYTES long), then null for ever after.
 */
export class FirstLineWatch {
  private readonly seen: number[] = [];
  private done = false;

  constructor(private readonly expected: FramingName) {}

  push(chunk: Uint8Array): string | null {
    if (this.done) return null;
    for (const byte of chunk) {
      this.seen.push(byte);
      if (byte === 0x0a || this.seen.length >= MAX_FIRST_LINE_BYTES) {
        this.done = true;
        return framingMismatchHint(this.expected, Uint8Array.from(this.seen));
      }
    }
    return null;
  }
}
