// One connection of the echo server: bytes in from stdin, frames out to stdout, log lines out to
// stderr. It joins a frame reader, an McpServer and the chosen faults, and knows nothing about
// where the bytes come from, so the Node program (stdin/stdout) and a Web Worker host share it.

import { getFraming } from './framing/index.ts';
import type { FramingName } from './framing/types.ts';
import { ECHO_SERVER_INFO, ECHO_SERVER_INSTRUCTIONS, createEchoTools } from './echo-tools.ts';
import {
  buggyNotificationReply,
  encodeWithCharLength,
  splitIntoWrites,
  stdoutLogLine,
  toolFailureAsRpcError,
  type FaultName,
} from './faults.ts';
import { ErrorCode, encodeError, validateMessage, type JsonRpcFailure, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcResponse } from './jsonrpc.ts';
import { McpServer, type McpServerOptions, type ServerTool } from './server.ts';

/**
 * What the session needs from a server: the reference McpServer, or a learner's exercise-4 class
 * of the same shape. `parseError` is optional because the exercise's starter does not have it.
 */
export interface SessionServer {
  /**
   * `context.send` writes a message of the server's own (progress, a log message, a sampling
   * request) to stdout, framed like every answer. Servers that never send anything ignore it.
   */
  handle(value: unknown, context?: { send(message: JsonRpcMessage): void }): Promise<JsonRpcResponse | null> | JsonRpcResponse | null;
  parseError?(detail: string): JsonRpcFailure;
  /**
   * stdin ended: end what never ends by itself (a 2026-07-28 subscriptions/listen), so the
   * in-flight wait below can finish. Optional: the handshake-era servers have nothing like it.
   */
  close?(): void;
}

/** Builds the session's server from the echo server's options; may throw (a learner's constructor). */
export type ServerFactory = (options: McpServerOptions) => SessionServer;

export const referenceServerFactory: ServerFactory = (options) => new McpServer(options);

export interface ServerSessionOptions {
  framing: FramingName;
  faults?: readonly FaultName[];
  /** Default: createEchoTools(). */
  tools?: readonly ServerTool[];
  /** The server's stdout: frames only (unless the stdout-log fault is on). */
  write(bytes: Uint8Array): void;
  /** The server's stderr: where every log line belongs. */
  log?(line: string): void;
  /** For split-writes; defaults to Math.random. */
  random?: () => number;
  /**
   * Default: the reference McpServer. The learner-server program passes the learner's class, so
   * their server meets the same framing, faults and tools the echo server does. Called once, now:
   * what it throws propagates out of createServerSession.
   */
  createServer?: ServerFactory;
}

export interface ServerSession {
  push(chunk: Uint8Array): void;
  /** stdin ended: resolves when every in-flight request has been answered */
  finish(): Promise<void>;
}

export function createServerSession(options: ServerSessionOptions): ServerSession {
  const faults = new Set(options.faults ?? []);
  const log = options.log ?? (() => {});
  const random = options.random ?? Math.random;
  const framing = getFraming(options.framing);
  const reader = framing.createReader();
  const createServer = options.createServer ?? referenceServerFactory;
  const server = createServer({
    serverInfo: ECHO_SERVER_INFO,
    instructions: ECHO_SERVER_INSTRUCTIONS,
    tools: options.tools ?? createEchoTools(),
    requireInitialized: !faults.has('no-gate'),
  });
  const inFlight = new Set<Promise<void>>();
  const textEncoder = new TextEncoder();

  const miscount = faults.has('char-length') && framing.name === 'content-length';
  if (faults.has('char-length') && !miscount) log('fault char-length has no effect: ndjson frames carry no length');

  /** Every byte that reaches stdout goes through here, so each fault has exactly one place to act. */
  function send(message: unknown, label: string): void {
    if (faults.has('stdout-log')) options.write(textEncoder.encode(stdoutLogLine(label)));
    const frame = miscount ? encodeWithCharLength(message) : framing.encode(message);
    if (faults.has('split-writes')) {
      for (const piece of splitIntoWrites(frame, random)) options.write(piece);
    } else {
      options.write(frame);
    }
  }

  function answer(response: JsonRpcResponse, label: string): void {
    send(faults.has('error-as-rpc-error') ? toolFailureAsRpcError(response) : response, label);
  }

  function receive(value: unknown): void {
    const incoming = describeIncoming(value);
    log(incoming.line);
    if (incoming.kind === 'notification' && faults.has('reply-to-notification')) {
      send(buggyNotificationReply(incoming.notification), incoming.label);
    }
    // Not awaited: a slow tool must not hold up the requests behind it, so each response is
    // written the moment its own request completes, whatever the arrival order was.
    // The executor runs now, so handle() is still called in arrival order; a learner's handle()
    // that throws synchronously or returns a plain value becomes a rejection or a value here.
    const context = { send: (message: JsonRpcMessage) => send(message, `${'method' in message ? message.method : 'response'} (for ${incoming.label})`) };
    const pending: Promise<void> = new Promise<JsonRpcResponse | null>((resolve) => resolve(server.handle(value, context)))
      .then((response) => {
        if (response !== null) answer(response, incoming.label);
      })
      .catch((error: unknown) => {
        // McpServer turns bad input into error responses, so this is a bug in the server itself
        // or a result JSON cannot carry (a BigInt, a cycle). Still answer: a client must not be
        // left waiting forever for an id that will never come back.
        log(`internal error while handling ${incoming.label}: ${error instanceof Error ? error.message : String(error)}`);
        if (incoming.kind === 'request') answer(encodeError(incoming.id, ErrorCode.InternalError, 'Internal error'), incoming.label);
      })
      .finally(() => inFlight.delete(pending));
    inFlight.add(pending);
  }

  return {
    push(chunk) {
      for (const item of reader.push(chunk)) {
        if (item.type === 'message') {
          receive(item.value);
        } else {
          log(`dropped ${item.length} bytes at offset ${item.offset} (${item.kind}): ${item.detail}`);
          send(parseErrorOf(server, item.detail), 'parse error');
        }
      }
    },
    async finish() {
      if (reader.bufferedBytes > 0) log(`stdin ended inside a frame: ${reader.bufferedBytes} bytes never completed`);
      server.close?.();
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}

/** The server's own -32700 answer when it has one, else the one the reference gives. */
function parseErrorOf(server: SessionServer, detail: string): JsonRpcFailure {
  if (typeof server.parseError === 'function') {
    try {
      return server.parseError(detail);
    } catch {
      // A learner's parseError that throws must not take the reader down with it.
    }
  }
  return encodeError(null, ErrorCode.ParseError, `Parse error: ${detail}`);
}

type Incoming =
  | { kind: 'request'; id: string | number; label: string; line: string }
  | { kind: 'notification'; notification: JsonRpcNotification; label: string; line: string }
  | { kind: 'other'; label: string; line: string };

/** Names a message for the logs: `tools/call #3`, with string ids quoted so "3" and 3 differ. */
function describeIncoming(value: unknown): Incoming {
  const outcome = validateMessage(value);
  if (!outcome.ok) return { kind: 'other', label: 'invalid request', line: `invalid message: ${outcome.reason}` };
  const message = outcome.message;
  if ('method' in message) {
    if ('id' in message) {
      const label = `${message.method} #${JSON.stringify(message.id)}`;
      return { kind: 'request', id: message.id, label, line: `request ${label}` };
    }
    return { kind: 'notification', notification: message, label: message.method, line: `notification ${message.method}` };
  }
  return { kind: 'other', label: 'response', line: `response #${JSON.stringify(message.id)} from the client (ignored)` };
}
