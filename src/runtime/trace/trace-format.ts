// The trace file format, version 1: what `npm run tap -- --record=FILE` writes and what the page
// opens. JSON lines: one header object first, then the tap's events in the order they happened.
// docs/trace-format/README.md describes it for people, docs/trace-format/trace-v1.schema.json for
// validators; trace-validate.ts is the same rules in code (a test proves the two agree).
//
// Pure on purpose (no node:*, no Buffer): the page parses traces in a Web Worker.

export const TRACE_FORMAT = 'mcp-playground-trace';
export const TRACE_VERSION = 1;

/** How the recorded bytes are framed into messages: LSP-style headers, one JSON per line, or HTTP/1.1. */
export type TraceFraming = 'content-length' | 'ndjson' | 'http';
export const TRACE_FRAMINGS: readonly TraceFraming[] = ['content-length', 'ndjson', 'http'];

/**
 * What was recorded: one stdio server the tap drove (`stdio`), a client and a server the tap sat
 * between (`between`), or the TCP connections of a loopback relay in front of an HTTP server (`http`).
 */
export type TraceMode = 'stdio' | 'between' | 'http';
export const TRACE_MODES: readonly TraceMode[] = ['stdio', 'between', 'http'];

interface TraceHeaderCommon {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_VERSION;
  framing: TraceFraming;
  /** Whether the person recording named the framing, or the recorder guessed it from the first bytes. */
  framingSource: 'given' | 'guessed';
  /** When recording started, ISO 8601 (`2026-12-01T16:00:00.000Z`); every event's `t` counts from it. */
  started: string;
  /** What wrote the file, free text (`mcp-playground tap`; the page writes its own name). */
  recorder: string;
}

export interface TraceStdioHeader extends TraceHeaderCommon {
  mode: 'stdio';
  framing: 'content-length' | 'ndjson';
  /** The server's argv as spawned (no shell). */
  program: string[];
}

export interface TraceBetweenHeader extends TraceHeaderCommon {
  mode: 'between';
  framing: 'content-length' | 'ndjson';
  program: string[];
  /** The client's argv as spawned (no shell). */
  client: string[];
}

export interface TraceHttpHeader extends TraceHeaderCommon {
  mode: 'http';
  framing: 'http';
  /** The HTTP server's argv, when the tap ran it (a live session on the HTTP host). */
  program?: string[];
  /** The HTTP MCP server the relay forwarded to (`http://127.0.0.1:3000/mcp`). */
  target?: string;
  /** The loopback address the relay listened on (`http://127.0.0.1:41234`). */
  listen?: string;
}

export type TraceHeader = TraceStdioHeader | TraceBetweenHeader | TraceHttpHeader;

/** Whose process an event is about, in `between` mode; absent means the server. */
export type TraceProc = 'client' | 'server';

// The events are the tap's own (src/runtime/tap-protocol.ts): a line the tap prints is a valid
// trace event as it is. Two optional fields and two events are added for the other modes.

export interface TraceSpawnEvent {
  tap: 1;
  ev: 'spawn';
  /** Milliseconds since `started`, one decimal. */
  t: number;
  pid: number;
  argv: string[];
  proc?: TraceProc;
}

export interface TraceBytesEvent {
  tap: 1;
  /** c2s: client to server (the server's stdin, or the HTTP request side); s2c: the other way. */
  ev: 'c2s' | 's2c';
  t: number;
  /** Exactly the bytes of one read or write, base64. */
  b64: string;
  /** The TCP connection, in `http` mode (absent elsewhere; absent there for the server's own stdio). */
  conn?: number;
}

export interface TraceStderrEvent {
  tap: 1;
  ev: 'stderr';
  t: number;
  b64: string;
  proc?: TraceProc;
}

/**
 * `--between`: the step of the stdio shutdown sequence (the other side had ended) that this process
 * exited after: its stdin closed (`eof`: it left by itself), then `SIGTERM`, then `SIGKILL`.
 */
export const SHUTDOWN_STEPS = ['eof', 'SIGTERM', 'SIGKILL'] as const;
export type ShutdownStep = (typeof SHUTDOWN_STEPS)[number];

export interface TraceExitEvent {
  tap: 1;
  ev: 'exit';
  t: number;
  code: number | null;
  signal: string | null;
  proc?: TraceProc;
  /** Absent when the process ended before anyone asked it to. */
  shutdown?: ShutdownStep;
}

export interface TraceErrorEvent {
  tap: 1;
  ev: 'error';
  t: number;
  message: string;
  proc?: TraceProc;
  conn?: number;
}

/** `http` mode: TCP connection `conn` is open (the recorder numbers them; the page's relay lets the page). */
export interface TraceOpenEvent {
  tap: 1;
  ev: 'open';
  t: number;
  conn: number;
}

/** `http` mode: connection `conn` ended (or never opened); `by`: who closed it first; `message`: why it failed. */
export interface TraceCloseEvent {
  tap: 1;
  ev: 'close';
  t: number;
  conn: number;
  by?: 'client' | 'server';
  message?: string;
}

export type TraceEvent =
  | TraceSpawnEvent
  | TraceBytesEvent
  | TraceStderrEvent
  | TraceExitEvent
  | TraceErrorEvent
  | TraceOpenEvent
  | TraceCloseEvent;
export type TraceEventName = TraceEvent['ev'];
export const TRACE_EVENT_NAMES: readonly TraceEventName[] = ['spawn', 'c2s', 's2c', 'stderr', 'exit', 'error', 'open', 'close'];

/** A whole trace, parsed. */
export interface Trace {
  header: TraceHeader;
  events: TraceEvent[];
}
