// How the log names bytes that crossed a relayed HTTP connection (an HTTP trace, `tap --listen`):
// by the connection, not by a process's stdin and stdout, and, for a chunk that carries no JSON-RPC
// message (a GET, a 202, a DELETE), by the HTTP message it starts instead of "no complete frame".
// Pure.

import type { LogEntry } from './message-log.ts';

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]$/;
const STATUS_LINE = /^HTTP\/1\.[01] \d{3}(?: .*)?$/;
/** A start line longer than this is not one the relay's HTTP/1.1 messages have. */
const MAX_START_LINE = 512;

/** The request or status line a chunk starts with, or null (it continues a message). */
export function httpStartLine(bytes: Uint8Array): string | null {
  const limit = Math.min(bytes.length, MAX_START_LINE);
  for (let i = 0; i + 1 < limit; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
      const line = new TextDecoder().decode(bytes.subarray(0, i));
      return REQUEST_LINE.test(line) || STATUS_LINE.test(line) ? line : null;
    }
  }
  return null;
}

/** What a bytes entry of an HTTP connection says when no JSON-RPC message completed in it. */
export type HttpChunkLabel = { kind: 'message'; startLine: string } | { kind: 'part' };

export function httpChunkLabel(entry: Extract<LogEntry, { type: 'bytes' }>): HttpChunkLabel | null {
  if (entry.conn === undefined) return null;
  const startLine = httpStartLine(entry.bytes);
  return startLine === null ? { kind: 'part' } : { kind: 'message', startLine };
}
