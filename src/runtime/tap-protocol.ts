// The tap's line protocol: what the tap reports about the server it spawned (events) and what it
// accepts on its own stdin (commands). One JSON object per line, ASCII only.
//
// Pure on purpose: no node:* imports and no Buffer, because the page decodes these lines too.
// The lines may have crossed a pseudo-terminal (WebContainer), which merges stdout and stderr,
// rewrites `\n` as `\r\n`, echoes typed input and decodes text chunk by chunk. So: raw frame bytes
// travel as base64, every non-ASCII character is escaped, and the parsers look for their marker
// inside a line instead of trusting the line to be clean.

import { base64ToBytes, bytesToBase64 } from '../protocol/base64.ts';

export const TAP_PROTOCOL_VERSION = 1;

/** Which pipe a chunk of bytes crossed: client to server (stdin), server to client (stdout), or the log. */
export type TapStream = 'c2s' | 's2c' | 'stderr';

export interface TapSpawnEvent {
  tap: 1;
  ev: 'spawn';
  /** Milliseconds since the tap started, one decimal. */
  t: number;
  pid: number;
  argv: string[];
}

export interface TapBytesEvent {
  tap: 1;
  ev: TapStream;
  t: number;
  /** The chunk, base64: exactly the bytes that crossed the pipe in one read or write. */
  b64: string;
  /**
   * c2s / s2c of a relayed TCP connection (an HTTP server's port) instead of the stdio pipes: the
   * connection's number, as the page chose it in its `connect` command.
   */
  conn?: number;
}

/** The relay connected to the server's port (HTTP programs): connection `conn` is open. */
export interface TapOpenEvent {
  tap: 1;
  ev: 'open';
  t: number;
  conn: number;
}

/** Relayed connection `conn` ended; `message` says why when it failed (refused, reset). */
export interface TapCloseEvent {
  tap: 1;
  ev: 'close';
  t: number;
  conn: number;
  message?: string;
}

export interface TapExitEvent {
  tap: 1;
  ev: 'exit';
  t: number;
  code: number | null;
  signal: string | null;
}

export interface TapErrorEvent {
  tap: 1;
  ev: 'error';
  t: number;
  message: string;
}

export type TapEvent = TapSpawnEvent | TapBytesEvent | TapExitEvent | TapErrorEvent | TapOpenEvent | TapCloseEvent;
export type TapEventName = TapEvent['ev'];

export type TapCommand =
  | { cmd: 'write'; b64: string; conn?: number }
  | { cmd: 'eof' }
  | { cmd: 'kill'; signal?: string }
  // A relayed TCP connection to the HTTP server the tap runs. No host and no port: the tap only
  // ever connects to the loopback port its own server reported, so a page cannot aim it elsewhere.
  | { cmd: 'connect'; conn: number }
  | { cmd: 'close'; conn: number };
export type TapCommandName = TapCommand['cmd'];

const EVENT_MARKER = '{"tap":1';
const COMMAND_MARKER = '{"cmd"';

// ---- encoding ----

/** One event as one ASCII-only line, without the trailing newline. */
export function encodeTapEvent(event: TapEvent): string {
  return toAsciiJson(event);
}

/** One command as one ASCII-only line, without the trailing newline. */
export function encodeTapCommand(command: TapCommand): string {
  return toAsciiJson(command);
}

/** Milliseconds rounded to one decimal: enough to order events, short enough to read. */
export function roundTapTime(ms: number): number {
  return Math.round(ms * 10) / 10;
}

// JSON.stringify already escapes control characters; escaping everything above 0x7E as well means
// no terminal can split or re-decode a character, because there are no multi-byte characters left.
function toAsciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// ---- parsing ----

/** Find a tap event in a line, even with junk (ANSI escapes, a prompt) around it. Never throws. */
export function parseTapEvent(line: string): TapEvent | null {
  // A clean line (the bridge's, the worker's, the tap's own) is the object itself: one parse, no
  // scan of its base64 for the closing brace. Whatever the parse does not take goes the long way,
  // which finds the same object first.
  const clean = wholeLineObject(line, EVENT_MARKER);
  if (clean !== undefined) {
    const event = asTapEvent(clean);
    if (event) return event;
  }
  for (const candidate of jsonObjectsStartingWith(line, EVENT_MARKER)) {
    const event = asTapEvent(candidate);
    if (event) return event;
  }
  return null;
}

/** Find a tap command in a line; anything else (echoed output, typing noise) gives null. Never throws. */
export function parseTapCommand(line: string): TapCommand | null {
  const clean = wholeLineObject(line, COMMAND_MARKER);
  if (clean !== undefined) {
    const command = tapCommandOf(clean);
    if (command) return command;
  }
  for (const candidate of jsonObjectsStartingWith(line, COMMAND_MARKER)) {
    const command = tapCommandOf(candidate);
    if (command) return command;
  }
  return null;
}

/**
 * True when a line holds something that starts like a command but is not a valid one, so the tap
 * can say so instead of silently dropping a request the page meant.
 */
export function looksLikeTapCommand(line: string): boolean {
  return line.includes(COMMAND_MARKER);
}

/**
 * Splits a text stream into lines on `\n` and `\r` alike, skipping blank lines: a terminal may turn
 * `\n` into `\r\n`, and `\r\n` typed in may arrive as `\n\n`.
 */
export class TapLineSplitter {
  private rest = '';

  /** Take the next chunk of text; return the complete, non-blank lines it finished. */
  push(text: string): string[] {
    // Only the new text is split, so a megabyte-long write command arriving in 64 KB chunks costs
    // linear time, not a rescan of everything held so far on every chunk.
    const parts = text.split(/[\r\n]/);
    const tail = parts.pop() ?? '';
    if (parts.length === 0) {
      this.rest += tail;
      return [];
    }
    parts[0] = this.rest + parts[0];
    this.rest = tail;
    return parts.filter((part) => part.trim() !== '');
  }

  /** The stream ended: whatever is left is the last line. */
  flush(): string[] {
    const last = this.rest;
    this.rest = '';
    return last.trim() === '' ? [] : [last];
  }
}

// The line parsed, when it is exactly one JSON object that starts with `marker`; else undefined.
// Such a line's first balanced object is the whole line, so this is the scan's first candidate.
function wholeLineObject(line: string, marker: string): unknown {
  if (!line.startsWith(marker) || line.charCodeAt(line.length - 1) !== 0x7d) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

// Yields each balanced `{...}` that starts at an occurrence of `marker`, parsed. The scan tracks
// strings so a `}` inside a string value does not end the object early.
function* jsonObjectsStartingWith(line: string, marker: string): Generator<unknown> {
  let from = line.indexOf(marker);
  while (from !== -1) {
    const end = matchingBrace(line, from);
    if (end !== -1) {
      try {
        yield JSON.parse(line.slice(from, end + 1));
      } catch {
        // not JSON after all: look for the next marker
      }
    }
    from = line.indexOf(marker, from + 1);
  }
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function asTapEvent(value: unknown): TapEvent | null {
  if (!isRecord(value) || value.tap !== 1 || typeof value.t !== 'number' || !Number.isFinite(value.t)) return null;
  const t = value.t;
  switch (value.ev) {
    case 'spawn':
      if (!Number.isInteger(value.pid) || !isStringArray(value.argv)) return null;
      return { tap: 1, ev: 'spawn', t, pid: value.pid as number, argv: value.argv };
    case 'c2s':
    case 's2c':
      if (!isBase64(value.b64)) return null;
      if (value.conn !== undefined) return isConn(value.conn) ? { tap: 1, ev: value.ev, t, b64: value.b64, conn: value.conn } : null;
      return { tap: 1, ev: value.ev, t, b64: value.b64 };
    case 'stderr':
      if (!isBase64(value.b64)) return null;
      return { tap: 1, ev: value.ev, t, b64: value.b64 };
    case 'open':
      return isConn(value.conn) ? { tap: 1, ev: 'open', t, conn: value.conn } : null;
    case 'close':
      if (!isConn(value.conn)) return null;
      if (value.message === undefined) return { tap: 1, ev: 'close', t, conn: value.conn };
      return typeof value.message === 'string' ? { tap: 1, ev: 'close', t, conn: value.conn, message: value.message } : null;
    case 'exit':
      if (!(value.code === null || Number.isInteger(value.code))) return null;
      if (!(value.signal === null || value.signal === undefined || typeof value.signal === 'string')) return null;
      return { tap: 1, ev: 'exit', t, code: value.code as number | null, signal: (value.signal as string | undefined) ?? null };
    case 'error':
      if (typeof value.message !== 'string') return null;
      return { tap: 1, ev: 'error', t, message: value.message };
    default:
      return null;
  }
}

/**
 * The command a parsed JSON value spells, rebuilt from its checked fields (anything else in it is
 * dropped), or null. For a channel that carries whole JSON messages (the bridge's socket).
 */
export function tapCommandOf(value: unknown): TapCommand | null {
  if (!isRecord(value)) return null;
  switch (value.cmd) {
    case 'write':
      if (!isBase64(value.b64)) return null;
      if (value.conn !== undefined) return isConn(value.conn) ? { cmd: 'write', b64: value.b64, conn: value.conn } : null;
      return { cmd: 'write', b64: value.b64 };
    case 'connect':
    case 'close':
      return isConn(value.conn) ? { cmd: value.cmd, conn: value.conn } : null;
    case 'eof':
      return { cmd: 'eof' };
    case 'kill':
      if (value.signal === undefined) return { cmd: 'kill' };
      return typeof value.signal === 'string' && /^SIG[A-Z0-9]+$/.test(value.signal) ? { cmd: 'kill', signal: value.signal } : null;
    default:
      return null;
  }
}

/** A connection number: a small non-negative integer the page picks. */
export const MAX_CONN = 2 ** 31 - 1;
function isConn(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_CONN;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isBase64(value: unknown): value is string {
  return typeof value === 'string' && value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

// ---- base64 over Uint8Array, without Buffer (src/protocol/base64.ts) ----

export { base64ToBytes, bytesToBase64 };

/** The bytes a c2s / s2c / stderr event carries. */
export function tapEventBytes(event: TapBytesEvent): Uint8Array {
  return base64ToBytes(event.b64);
}
