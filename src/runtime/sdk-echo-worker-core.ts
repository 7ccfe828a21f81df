// The official SDK's McpServer (the same echo tool as sdk-echo-server.mjs) inside a Web Worker, so
// "Check my client" runs in the worker host too. The SDK's stdio transport needs Node's streams;
// here a small SDK Transport stands in for it, reading and writing NDJSON exactly as the SDK's
// ReadBuffer and serializeMessage do, and reporting the same tap events the real tap would:
// spawn, c2s per write, s2c per message the server sends, stderr, exit.
// Apart from the Worker itself, so Node tests drive it through a MessageChannel.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { wrongWorkerRefusal } from './echo-worker-core.ts';
import type { ProgramSpec } from './host.ts';
import { SDK_ECHO_READY_LINE, SDK_ECHO_SERVER_INFO, registerSdkEchoTool } from './sdk-echo-tool.ts';
import { base64ToBytes, bytesToBase64, roundTapTime, type TapEvent } from './tap-protocol.ts';

export interface SdkEchoWorkerCoreDeps {
  post(event: TapEvent): void;
  now?: () => number;
}

type WithoutStamp<E> = E extends TapEvent ? Omit<E, 'tap' | 't'> : never;
type State = 'waiting' | 'running' | 'finishing' | 'exited';

/** A stdio-like SDK transport over tap commands (in) and tap events (out). */
class TapTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly decoder = new TextDecoder();
  private pending = '';

  constructor(
    private readonly writeOut: (bytes: Uint8Array) => void,
    private readonly seen: (message: JSONRPCMessage) => void,
  ) {}

  async start(): Promise<void> {}

  /** stdin bytes: whole lines become messages, as the SDK's ReadBuffer cuts them. */
  receive(bytes: Uint8Array): void {
    this.pending += this.decoder.decode(bytes, { stream: true });
    for (let at = this.pending.indexOf('\n'); at !== -1; at = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, at).replace(/\r$/, '');
      this.pending = this.pending.slice(at + 1);
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        // What StdioServerTransport does with a line it cannot read: report it and carry on.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      this.seen(message);
      this.onmessage?.(message);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.writeOut(new TextEncoder().encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

export function createSdkEchoWorkerCore(deps: SdkEchoWorkerCoreDeps): { handle(message: unknown): void } {
  const now = deps.now ?? (() => performance.now());
  let state: State = 'waiting';
  let transport: TapTransport | null = null;
  let server: McpServer | null = null;
  // Requests not answered yet: on EOF the program leaves once these are done, as Node's event
  // loop would keep the real one alive for them.
  const unanswered = new Set<string>();

  function report(body: WithoutStamp<TapEvent>): void {
    if (state === 'exited') return;
    deps.post({ tap: 1, t: roundTapTime(now()), ...body } as TapEvent);
  }

  function stderr(line: string): void {
    report({ ev: 'stderr', b64: bytesToBase64(new TextEncoder().encode(`${line}\n`)) });
  }

  function exit(code: number | null, signal: string | null): void {
    if (state === 'exited') return;
    report({ ev: 'exit', code, signal });
    state = 'exited';
    void server?.close().catch(() => {});
    server = null;
    transport = null;
  }

  function exitIfDone(): void {
    if (state === 'finishing' && unanswered.size === 0) exit(0, null);
  }

  function start(spec: ProgramSpec): void {
    if (state !== 'waiting') return report({ ev: 'error', message: 'already started: one worker runs one server' });
    if (spec.program !== 'sdk-echo-server') return report({ ev: 'error', message: wrongWorkerRefusal(String(spec.program), 'sdk-echo-server') });
    // The same rules as the bridge: the SDK's server has no switches.
    if (spec.framing !== 'ndjson') return report({ ev: 'error', message: 'sdk-echo-server speaks ndjson only' });
    if (!Array.isArray(spec.faults) || spec.faults.length > 0) return report({ ev: 'error', message: 'sdk-echo-server takes no faults' });
    state = 'running';
    report({ ev: 'spawn', pid: 0, argv: ['node', 'sdk-echo-server.mjs'] });
    transport = new TapTransport(
      (bytes) => {
        const id = responseId(new TextDecoder().decode(bytes));
        report({ ev: 's2c', b64: bytesToBase64(bytes) });
        if (id !== null) unanswered.delete(id);
        exitIfDone();
      },
      (message) => {
        if ('method' in message && 'id' in message) unanswered.add(JSON.stringify(message.id));
      },
    );
    server = new McpServer({ ...SDK_ECHO_SERVER_INFO });
    registerSdkEchoTool(server);
    stderr(SDK_ECHO_READY_LINE);
    void server.connect(transport).catch((error: unknown) => {
      stderr(`sdk-echo-server: ${error instanceof Error ? error.message : String(error)}`);
      exit(1, null);
    });
  }

  return {
    handle(message) {
      const value = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
      if (value.type === 'start' && typeof value.spec === 'object' && value.spec !== null) return start(value.spec as ProgramSpec);
      switch (value.cmd) {
        case 'write': {
          if (typeof value.b64 !== 'string') break;
          if (state === 'finishing') return report({ ev: 'error', message: 'write after eof: the server stdin is closed' });
          if (state !== 'running' || !transport) return;
          report({ ev: 'c2s', b64: value.b64 });
          transport.receive(base64ToBytes(value.b64));
          return;
        }
        case 'eof':
          if (state !== 'running') return;
          state = 'finishing';
          // A macrotask later: messages the transport just delivered have started their handlers.
          setTimeout(exitIfDone, 0);
          return;
        case 'kill':
          if (state === 'running' || state === 'finishing') exit(null, typeof value.signal === 'string' ? value.signal : 'SIGTERM');
          return;
      }
      report({ ev: 'error', message: 'malformed command' });
    },
  };
}

function responseId(line: string): string | null {
  try {
    const value = JSON.parse(line) as { id?: unknown; method?: unknown };
    return value.method === undefined && (typeof value.id === 'string' || typeof value.id === 'number') ? JSON.stringify(value.id) : null;
  } catch {
    return null;
  }
}
