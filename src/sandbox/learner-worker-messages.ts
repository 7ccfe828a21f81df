// The messages between the page and the worker that runs the learner's own code for the protocol
// view: their exercise 3 client (a session driven step by step), their exercise 2 reader (one
// replay) or their exercise 5 registerMcpTools (one bridge over listed tools, or, for the Chapter
// loop, a live bridge whose client calls come back to the page's real McpClient and whose registry
// then serves the agent turn), or their exercise 8 authorization client (one pure step at a time,
// called by the sign-in scene's flow on the page). Everything is plain data.

import type { FramingName } from '../protocol/framing/types.ts';
import type { ToolInfo } from '../protocol/mcp.ts';
import type { ToolOutcome } from '../protocol/registry.ts';
import type { ToolRow } from './tool-table.ts';
import type { ReplayStep } from '../protocol/inspect/chunk-replay.ts';
import type { CallOutcome, DriverEvent, DriverOp, ErrorInfo, RegisterOutcome } from './client-driver.ts';
import type { HttpClientRequest } from '../protocol/http/types.ts';
import type { ClientStepName } from '../protocol/auth/client-steps.ts';

export interface MergeResult {
  ok: boolean;
  /** What registerMcpTools returned, when it returned a number. */
  count: number | null;
  error: ErrorInfo | null;
  /** The registry afterwards (after a refusal: still the local tools, if the code is all-or-nothing). */
  tools: ToolRow[];
}

/** How the era stepper runs the dual-era client: pinned to a modern version, or probing first. */
export interface LearnerEraConfig {
  mode: 'modern' | 'probe';
  versions?: readonly string[];
}

/** The learner's file as the exercise engine would run it. */
export interface LearnerSource {
  code: string;
  /** The editor's file name, e.g. `client.ts`: used in messages and stack traces. */
  file: string;
  /** Where the reference sits ('@protocol/client'), so relative imports in a pasted reference resolve. */
  moduleId: string | undefined;
}

export type PageToLearner =
  /** `era`: the learner's file is exercise 7's (a ModernSession), run inside the project's DualEraClient. */
  | { type: 'client-start'; source: LearnerSource; framing: FramingName; requestTimeoutMs: number; era?: LearnerEraConfig }
  /**
   * Exercise 6: the learner's HttpClientTransport (with their SseReader) under the project's
   * McpClient. Its HTTP exchanges come back to the page as `http-request` messages: the worker has
   * no network of its own, the page speaks HTTP/1.1 over the wire's relayed connection for it.
   */
  | { type: 'http-client-start'; source: LearnerSource; url: string; requestTimeoutMs: number }
  | { type: 'http-head'; reqId: number; status: number; headers: Record<string, string> }
  | { type: 'http-failed'; reqId: number; error: string }
  | { type: 'http-body'; reqId: number; bytes: Uint8Array }
  | { type: 'http-end'; reqId: number; error?: string }
  | { type: 'client-call'; callId: number; op: DriverOp }
  | { type: 'transport-data'; bytes: Uint8Array }
  | { type: 'transport-close'; reason: string }
  | { type: 'flush'; flushId: number }
  | { type: 'reader-run'; jobId: number; source: LearnerSource; framing: FramingName; chunks: Uint8Array[] }
  | { type: 'register-run'; jobId: number; source: LearnerSource; prefix: string; tools: ToolInfo[] }
  /** Chapter loop: run the learner's registerMcpTools over a client that forwards to the page. */
  | { type: 'agent-merge'; source: LearnerSource; prefix: string }
  | { type: 'agent-rpc-result'; rpcId: number; outcome: CallOutcome }
  /** Chapter loop: registry.execute in the merged registry. */
  | { type: 'agent-execute'; execId: number; name: string; args: Record<string, unknown> }
  /** The sign-in scene: one of exercise 8's steps, called with plain data (the file loads on the first call). */
  | { type: 'auth-call'; callId: number; source: LearnerSource; name: ClientStepName; args: unknown[] };

/** What the learner's code asked of the McpClient it was handed. */
export type AgentRpcCall = { method: 'listTools' } | { method: 'callTool'; name: string; args: Record<string, unknown> };

export type LearnerToPage =
  | { type: 'ready' }
  | { type: 'alive' }
  /**
   * The worker is about to transpile learner code (no learner code runs during it), and then that
   * it is done: the page holds the 2 s silence rule off in between, for a slow machine's sake.
   */
  | { type: 'preparing' }
  | { type: 'prepared' }
  | { type: 'client-started'; outcome: CallOutcome }
  | { type: 'client-settled'; callId: number; outcome: CallOutcome }
  | { type: 'client-event'; event: DriverEvent }
  | { type: 'transport-write'; bytes: Uint8Array }
  | { type: 'transport-end' }
  /** Exercise 6: one HTTP exchange the learner's transport asked for, and its cancel (stop reading, close). */
  | { type: 'http-request'; reqId: number; request: HttpClientRequest }
  | { type: 'http-cancel'; reqId: number }
  | { type: 'flushed'; flushId: number }
  | { type: 'reader-result'; jobId: number; steps: ReplayStep[] | null; error: ErrorInfo | null }
  | { type: 'register-result'; jobId: number; outcome: RegisterOutcome }
  | { type: 'agent-rpc'; rpcId: number; call: AgentRpcCall }
  | { type: 'agent-merged'; outcome: MergeResult }
  | { type: 'agent-executed'; execId: number; outcome: ToolOutcome }
  | { type: 'auth-result'; callId: number; outcome: CallOutcome };

export const LEARNER_HEARTBEAT_MS = 250;
