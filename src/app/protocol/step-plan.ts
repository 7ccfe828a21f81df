// What a stepper run does, one step at a time. The handshake plan is the chapter's conversation;
// the failure lab builds other plans from the same steps.

import type { JsonRpcMessage } from '../../protocol/jsonrpc.ts';

export type PlanStep =
  | { kind: 'initialize' }
  /** The dual-era client's connect(): server/discover, then (on a legacy answer) initialize. */
  | { kind: 'connect' }
  /** Read the fallback handshake's answer when the probe fell back; skipped after a modern answer. */
  | { kind: 'fallback' }
  | { kind: 'notify-initialized' }
  | { kind: 'list-tools' }
  | { kind: 'call-tool'; name: string; args: Record<string, unknown> }
  /** A frame written straight to the server's stdin, around the client: a misbehaving client. */
  | { kind: 'raw'; message: JsonRpcMessage }
  /** Let the client read the server's bytes up to the next response. */
  | { kind: 'receive' }
  /** close(): the client ends the server's stdin (EOF). */
  | { kind: 'close' }
  /** Wait for the server process to exit. */
  | { kind: 'exit' }
  /** Bridge the listed tools into a registry that already holds the chapter's local tools. */
  | { kind: 'register'; prefix: string };

export type PlanStepKind = PlanStep['kind'];

/** The text the handshake's echo call sends: non-ASCII on purpose, so bytes and characters differ. */
export const ECHO_TEXT = '你好, MCP 👋';

export const HANDSHAKE_PLAN: readonly PlanStep[] = [
  { kind: 'initialize' },
  { kind: 'receive' },
  { kind: 'notify-initialized' },
  { kind: 'list-tools' },
  { kind: 'receive' },
  { kind: 'call-tool', name: 'echo', args: { text: ECHO_TEXT } },
  { kind: 'receive' },
  { kind: 'close' },
  { kind: 'exit' },
];

/** Steps that make the client write a frame (and so wait for its bytes on stdin). */
export function isSendStep(step: PlanStep): boolean {
  return step.kind === 'initialize' || step.kind === 'connect' || step.kind === 'notify-initialized' || step.kind === 'list-tools' || step.kind === 'call-tool' || step.kind === 'raw';
}
