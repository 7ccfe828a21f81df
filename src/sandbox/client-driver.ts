// Who drives the stepper: the reference McpClient on the page, or the learner's own client from
// exercise 3 inside a Web Worker. Both look the same from the stepper: operations in, outcomes and
// client events out, everything plain data so it can cross a worker boundary.

import type { ClientState } from '../protocol/client-errors.ts';
import type { FramingName } from '../protocol/framing/types.ts';
import type { JsonRpcMessage } from '../protocol/jsonrpc.ts';
import type { ToolInfo } from '../protocol/mcp.ts';
import type { ByteTransport, Unsubscribe } from '../protocol/transport.ts';

export type DriverKind = 'reference' | 'learner';

export type DriverOp =
  | { op: 'initialize' }
  | { op: 'notifyInitialized' }
  | { op: 'listTools' }
  /** `meta`: the request's `_meta` (the HTTP stepper's progress token). */
  | { op: 'callTool'; name: string; args: Record<string, unknown>; meta?: Record<string, unknown> }
  | { op: 'close' };

/** An error as data: what was thrown, and where in the learner's file when that is known. */
export interface ErrorInfo {
  name: string;
  message: string;
  /** 1-based line in the learner's file. */
  line: number | null;
  /** A JSON-RPC error code, for an error response turned into an exception. */
  code: number | null;
}

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };

export type DriverEvent =
  | { type: 'state'; from: ClientState; to: ClientState; cause: string }
  | { type: 'sent'; message: JsonRpcMessage }
  | { type: 'received'; message: JsonRpcMessage }
  | { type: 'protocol-error'; detail: string }
  | { type: 'notification'; message: JsonRpcMessage }
  /** The learner's code threw where nobody could catch it (a timer, a listener). */
  | { type: 'uncaught'; error: ErrorInfo }
  /** The driver is gone (its worker hung or failed): nothing more will come from it. */
  | { type: 'crashed'; reason: string };

export interface ClientDriver {
  readonly kind: DriverKind;
  /** Create the client over `transport`; `ok: false` when the code could not load or construct. */
  start(transport: ByteTransport, framing: FramingName): Promise<CallOutcome>;
  /** Call one client method; settles when the method's promise does. Never rejects. */
  perform(op: DriverOp): Promise<CallOutcome>;
  /** Resolves once every event caused so far has been delivered. */
  flush(): Promise<void>;
  onEvent(listener: (event: DriverEvent) => void): Unsubscribe;
  dispose(): void;
}

/** One tool in a registry, as the lab shows it. */
export interface RegistryEntryView {
  name: string;
  source: 'local' | 'mcp';
  remoteName: string | null;
}

export interface RegisterOutcome {
  ok: boolean;
  /** How many tools registerMcpTools said it registered. */
  count: number | null;
  error: ErrorInfo | null;
  /** The registry afterwards: on a refused bridge it must still hold only the local tools. */
  registry: RegistryEntryView[];
}

/** Runs registerMcpTools (the reference, or the learner's from exercise 5) over listed tools. */
export interface RegisterRunner {
  readonly kind: DriverKind;
  run(prefix: string, tools: readonly ToolInfo[]): Promise<RegisterOutcome>;
}

export function errorInfo(error: unknown, line: number | null = null): ErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name || 'Error', message: error.message, line, code: typeof code === 'number' ? code : null };
  }
  return { name: 'Thrown value', message: typeof error === 'string' ? error : safeString(error), line, code: null };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
