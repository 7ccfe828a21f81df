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

/** What runs the official server over the worker's transport; the default is SDK 1.x's McpServer. */
export interface SdkServing {
  program: 'sdk-echo-server' | 'sdk2-echo-server';
  readyLine: string;
  /** The eras this program accepts (`spec.era`); absent: it has no era switch. */
  eras?: readonly string[];
  serve(transport: Transport, era: string | undefined): Promise<{ close(): Promise<void> }>;
}

export interface SdkEchoWorkerCoreDeps {
  post(event: TapEvent): void;
  now?: () => number;
  serving?: SdkServing;
}

const SDK1_SERVING: SdkServing = {
  program: 'sdk-echo-server',
  readyLine: SDK_ECHO_READY_LINE,
  async serve(transport) {
    const server = new McpServer({ ...SDK_ECHO_SERVER_INFO });
    registerSdkEchoTool(server);
    await server.connect(transport);
    return server;
  },
};

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
  const serving = deps.serving ?? SDK1_SERVING;
  const name = serving.program;
  let state: State = 'waiting';
  let transport: TapTransport | null = null;
  let server: { close(): Promise<void> } | null = null;
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
    if (spec.program !== name) return report({ ev: 'error', message: wrongWorkerRefusal(String(spec.program), name) });
    // The same rules as the bridge: the SDK's server has no switches but (SDK 2) its era.
    if (spec.framing !== 'ndjson') return report({ ev: 'error', message: `${name} speaks ndjson only` });
    if (!Array.isArray(spec.faults) || spec.faults.length > 0) return report({ ev: 'error', message: `${name} takes no faults` });
    if (spec.era !== undefined && !(serving.eras ?? []).includes(spec.era)) return report({ ev: 'error', message: `${name} takes no era ${String(spec.era).slice(0, 20)}` });
    const era = spec.era === 'dual' ? undefined : spec.era;
    state = 'running';
    report({ ev: 'spawn', pid: 0, argv: ['node', `${name}.mjs`, ...(era === undefined ? [] : [`--era=${era}`])] });
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
    stderr(serving.readyLine);
    const connected = transport;
    serving.serve(connected, era).then(
      (running) => {
        if (state === 'exited') void running.close().catch(() => {});
        else server = running;
      },
      (error: unknown) => {
        stderr(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        exit(1, null);
      },
    );
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
