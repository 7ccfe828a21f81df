// One interface for the three places the live echo server can run: a WebContainer, a local Node
// bridge, or a Web Worker. Whatever the host, the page gets the same thing back: a Wire.

import type { EchoEra } from './echo-server-args.ts';
import type { McpHttpToolSet } from './mcp-http-args.ts';
import type { FramingName } from '../protocol/framing/types.ts';
import type { FaultName } from '../protocol/faults.ts';
import type { ByteTransport, Unsubscribe } from '../protocol/transport.ts';
import type { TapEvent } from './tap-protocol.ts';
import type { LearnerServerSource } from '../sandbox/learner-server-core.ts';

/** The learner's exercise-4 file (defined beside the code that loads it). */
export type { LearnerServerSource };

export type HostKind = 'webcontainer' | 'bridge' | 'worker';
export const HOST_KINDS: readonly HostKind[] = ['webcontainer', 'bridge', 'worker'];

/**
 * The programs a host may run. A closed set: nothing else is ever spawned. `learner-server` is the
 * project's own runner serving the echo tools through the learner's exercise-4 McpServer class.
 * `mcp-http` is the echo server over Streamable HTTP; its wire speaks HTTP/1.1 (http-tap-wire.ts).
 */
export type ProgramName = 'echo-server' | 'sdk-echo-server' | 'sdk2-echo-server' | 'learner-server' | 'mcp-http' | 'sdk-http-server';

/**
 * The HTTP servers: the tap relays TCP connections to the port each prints, and the page's wire
 * speaks HTTP/1.1 (http-tap-wire.ts). `sdk-http-server` is the official SDK 1.32.2's Streamable
 * HTTP echo server (Check my client, HTTP mode).
 */
export const HTTP_PROGRAMS: readonly ProgramName[] = ['mcp-http', 'sdk-http-server'];
export function isHttpProgram(program: ProgramName): boolean {
  return HTTP_PROGRAMS.includes(program);
}

export interface ProgramSpec {
  program: ProgramName;
  framing: FramingName;
  faults: readonly FaultName[];
  /** Required for (and only for) `learner-server`. */
  learnerServer?: LearnerServerSource;
  /**
   * Only for `echo-server` (dual, legacy, modern) and `sdk2-echo-server` (dual, modern): which
   * protocol era it speaks (`--era=`). Absent means dual-era, the default; `legacy` is what a
   * dual-era client's probe falls back against.
   */
  era?: EchoEra;
  /** Only for `mcp-http`: what it serves (`--tools=`). Absent means the echo tools. */
  tools?: McpHttpToolSet;
  /**
   * Only for `mcp-http` with the echo tools: 'self' makes it a protected resource that runs its own
   * authorization server on its own origin (`--auth=self`). It needs Node: the worker host refuses it.
   */
  auth?: 'self';
}

/**
 * A running server as the page sees it. As a ByteTransport it is what an MCP client talks to
 * (stdin one way, stdout chunks the other); `onTapEvent` additionally reports every byte that
 * crossed the pipes, before anyone parsed it, plus stderr and the exit.
 */
export interface Wire extends ByteTransport {
  readonly host: HostKind;
  onTapEvent(listener: (event: TapEvent) => void): Unsubscribe;
  /** Stop the server now (the client's polite way out is `end()`, which closes stdin). */
  kill(): void;
}

/**
 * Why a host cannot be used, as a code and its values rather than words: the runtime stays free of
 * any one language, and the live panel (app/live-session/host-reason-text.ts) words it in the
 * page's language. A reason without a code (a host's own error text) is shown as it is.
 */
export type HostReasonCode =
  | { code: 'boot-timeout'; seconds: number }
  | { code: 'boot-failed'; detail: string }
  | { code: 'mount-failed'; detail: string }
  | { code: 'not-isolated' }
  | { code: 'no-shared-array-buffer' }
  | { code: 'offline' }
  | { code: 'not-chosen' }
  | { code: 'not-tried-chosen'; chosen: HostKind }
  | { code: 'not-tried-forced'; forced: HostKind }
  | { code: 'no-bridge-token' }
  | { code: 'no-page-address' }
  | { code: 'no-websocket' }
  | { code: 'bridge-unreachable'; url: string; detail: string }
  | { code: 'bridge-closed'; url: string; detail: string }
  | { code: 'bridge-silent'; url: string; ms: number }
  | { code: 'no-workers' }
  | { code: 'check-failed'; host: HostKind; detail: string };

/**
 * Why a host can or cannot be used: `reason` is the English sentence (logs, tests), `why` its code
 * when the host knows it, which the live panel shows in the page's language.
 */
export type HostAvailability =
  | { kind: HostKind; status: 'available' }
  | { kind: HostKind; status: 'unavailable'; reason: string; why?: HostReasonCode };

export interface Host {
  readonly kind: HostKind;
  /** Start one server process and hand back its wire. Rejects with a readable Error. */
  start(spec: ProgramSpec): Promise<Wire>;
}
