// The chapter's failure modes, built into the echo server as switches that are all off by
// default. Turning one on makes the server misbehave in exactly one well-known way, so a learner
// can watch what the bug does to the bytes and to a client. Only pure helpers live here; the
// session (server-session.ts) decides where each one applies.

import { ErrorCode, encodeError, type JsonRpcNotification, type JsonRpcResponse } from './jsonrpc.ts';

export const FAULT_NAMES = [
  'stdout-log',
  'char-length',
  'reply-to-notification',
  'error-as-rpc-error',
  'split-writes',
  'no-gate',
  'close-streams-early',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export const FAULT_DESCRIPTIONS: Record<FaultName, string> = {
  'stdout-log':
    'Writes a plain-text log line to stdout before every response, the classic stdout pollution that derails the client frame parser.',
  'char-length':
    'Counts Content-Length in UTF-16 code units (string length) instead of UTF-8 bytes, so a non-ASCII body is cut short (Content-Length framing only).',
  'reply-to-notification':
    'Answers every notification with an orphan response that has no id, {"jsonrpc":"2.0","result":{}}, although notifications are never answered.',
  'error-as-rpc-error':
    'Reports a failing tool as a JSON-RPC error (-32603) instead of a result with isError: true, so the model never reads what went wrong.',
  'split-writes':
    'Writes every frame in pieces of 1 to 7 bytes, some cut inside multi-byte UTF-8 characters, as a pipe may deliver them.',
  'no-gate':
    'Serves tools/list and tools/call before notifications/initialized, as the official SDK does over stdio (lenient, not strictly wrong).',
  'close-streams-early':
    'Ends every connection of a request\'s event stream as soon as it has written what was pending (the first one right after the priming event with its id and retry), so the client must wait retry ms and resume with GET and Last-Event-ID until the response comes (Streamable HTTP only).',
};

/**
 * Faults that act on Streamable HTTP's event streams: the stdio echo server has no streams to
 * end, so its argument parser refuses them (as mcp-http refuses the stdout and Content-Length ones).
 */
export const HTTP_ONLY_FAULTS = ['close-streams-early'] as const satisfies readonly FaultName[];
export type StdioFaultName = Exclude<FaultName, (typeof HTTP_ONLY_FAULTS)[number]>;

export function isHttpOnlyFault(name: FaultName): boolean {
  return (HTTP_ONLY_FAULTS as readonly FaultName[]).includes(name);
}

/** The faults the stdio echo server takes: the live panel's switches. */
export const STDIO_FAULT_NAMES: readonly StdioFaultName[] = FAULT_NAMES.filter((name): name is StdioFaultName => !isHttpOnlyFault(name));

export function isFaultName(value: string): value is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(value);
}

// ---- stdout-log ----

/** The kind of line a debugging server prints with console.log, which on stdio means stdout. */
export function stdoutLogLine(label: string): string {
  return `[echo-server] answering ${label}\n`;
}

// ---- char-length ----

/**
 * A Content-Length frame whose header counts `body.length`: UTF-16 code units, not UTF-8 bytes.
 * For ASCII the two agree, which is why the bug survives testing until someone sends "你好"
 * (2 units, 6 bytes); then the reader takes too few bytes and every later frame is misaligned.
 */
export function encodeWithCharLength(message: unknown): Uint8Array {
  const body = JSON.stringify(message);
  return new TextEncoder().encode(`Content-Length: ${body.length}\r\n\r\n${body}`);
}

// ---- reply-to-notification ----

/**
 * What a server produces when it answers every message with `send({ jsonrpc, id: msg.id, result })`:
 * a notification has no id, so `id` is undefined and JSON.stringify drops the key, leaving
 * `{"jsonrpc":"2.0","result":{}}`, a response no pending request can claim.
 */
export function buggyNotificationReply(notification: JsonRpcNotification): unknown {
  const id = (notification as { id?: unknown }).id;
  return { jsonrpc: '2.0', id, result: {} };
}

// ---- error-as-rpc-error ----

/**
 * Turns a tool failure (a result with isError: true) into a JSON-RPC error carrying the same text.
 * The model loses the failure: clients raise RPC errors to the program, not to the conversation.
 */
export function toolFailureAsRpcError(response: JsonRpcResponse): JsonRpcResponse {
  if (!('result' in response)) return response;
  const result = response.result as { isError?: unknown; content?: unknown } | null;
  if (typeof result !== 'object' || result === null || result.isError !== true) return response;
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const text = blocks
    .map((block) => (isTextBlock(block) ? block.text : ''))
    .filter((line) => line !== '')
    .join('\n');
  return encodeError(response.id, ErrorCode.InternalError, text === '' ? 'Tool failed' : text);
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  if (typeof block !== 'object' || block === null) return false;
  const { type, text } = block as { type?: unknown; text?: unknown };
  return type === 'text' && typeof text === 'string';
}

// ---- split-writes ----

export const MAX_WRITE_BYTES = 7;

/**
 * Cuts one frame into writes of 1..MAX_WRITE_BYTES bytes, the way a pipe may deliver it. The
 * first multi-byte UTF-8 character is always cut after its lead byte (others by chance), because
 * that is the case that breaks a reader decoding each chunk as text instead of buffering bytes.
 * `random` returns numbers in [0, 1), like Math.random; tests pass a seeded one.
 */
export function splitIntoWrites(bytes: Uint8Array, random: () => number): Uint8Array[] {
  const cuts = new Set<number>();

  let cutInsideACharacter = false;
  for (let at = 1; at < bytes.length; at++) {
    const startsATail = isContinuationByte(bytes[at]) && !isContinuationByte(bytes[at - 1]);
    if (startsATail && (!cutInsideACharacter || random() < 0.5)) {
      cuts.add(at);
      cutInsideACharacter = true;
    }
  }

  // Extra cuts only shorten pieces, so the random walk alone bounds every piece's size.
  for (let at = 0; ; ) {
    at += 1 + Math.floor(unitInterval(random()) * MAX_WRITE_BYTES);
    if (at >= bytes.length) break;
    cuts.add(at);
  }

  // slice, not subarray: each write owns its bytes, so a host that transfers buffers
  // (postMessage from a worker) cannot detach the rest of the frame.
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    pieces.push(bytes.slice(start, cut));
    start = cut;
  }
  if (start < bytes.length) pieces.push(bytes.slice(start));
  return pieces;
}

/** 10xxxxxx: the second, third or fourth byte of a UTF-8 character. */
function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0b1100_0000) === 0b1000_0000;
}

/** Guard against a random source that returns exactly 1 (or junk). */
function unitInterval(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 0.999_999) : 0;
}
