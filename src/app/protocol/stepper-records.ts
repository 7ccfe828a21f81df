// What one step of the stepper left behind: the arrows it drew (each a real frame, or EOF, or the
// exit), notes on the lane where something went wrong, and the client's state, pending table and
// registry right after it. Records are plain data: stepping back just shows an older one.

import type { ClientState } from '../../protocol/client-errors.ts';
import type { ReadItem } from '../../protocol/framing/types.ts';
import { idKey, isErrorResponse, isNotification, isRequest, validateMessage, type JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { DriverKind, ErrorInfo, RegisterOutcome } from '../../sandbox/client-driver.ts';
import type { WireDirection } from '../../protocol/inspect/byte-stream.ts';
import type { PlanStep } from './step-plan.ts';

export type Lane = 'client' | 'pipe' | 'server';

export type ArrowKind = 'request' | 'notification' | 'response' | 'error-response' | 'invalid' | 'unreadable' | 'eof' | 'exit';

export interface Arrow {
  /** Unique in a run; also the arrow's position in drawing order. */
  seq: number;
  direction: WireDirection;
  kind: ArrowKind;
  /** A request's or notification's method; for a response, the method of the request it answers. */
  method: string | null;
  id: JsonRpcId | null;
  /** The parsed JSON, for frames that held JSON. */
  value: unknown;
  /** Why a frame could not be read or is not JSON-RPC; how the server ended. */
  detail: string | null;
  /** Where the frame sits in its direction's byte stream; null for EOF and the exit. */
  frame: { offset: number; length: number } | null;
  /** The chunks (by index in the stream) that carried the frame. */
  chunks: number[];
  /** The tap's clock when the frame's last byte crossed the pipe. */
  t: number | null;
  /** Page clock when the frame's last byte reached the page, and when the arrow was drawn. */
  arrivedAt: number | null;
  drawnAt: number;
  /** Written straight onto stdin by the stepper, not by the client. */
  aroundClient: boolean;
  exit: { code: number | null; signal: string | null } | null;
}

export type NoteKind =
  | 'load-failed'
  | 'threw'
  | 'protocol-error'
  | 'uncaught'
  | 'crashed'
  | 'nothing-sent'
  | 'no-response'
  | 'nothing-to-read'
  | 'stdin-open'
  | 'still-running'
  | 'registered'
  | 'register-refused'
  | 'result';

export interface Note {
  seq: number;
  lane: Lane;
  severity: 'error' | 'warning' | 'info';
  kind: NoteKind;
  /** Whose code it is about: the client that drives, the server, or the stepper itself. */
  who: DriverKind | 'server' | 'stepper';
  /** English detail from the code that produced it (an error message, a reader's words). */
  detail: string;
  error: ErrorInfo | null;
  drawnAt: number;
}

export type PendingStatus = 'waiting' | 'answered' | 'error-answer';

export interface PendingRow {
  key: string;
  id: JsonRpcId;
  method: string;
  /** Index of the step that sent it. */
  sentInStep: number;
  aroundClient: boolean;
  status: PendingStatus;
  answeredInStep: number | null;
  /** 1 for the first request answered in the run, 2 for the next… so out-of-order answers show. */
  answerOrder: number | null;
  /** What the client's method call gave back (only for calls the client made). */
  outcome: { ok: true; summary: string } | { ok: false; error: ErrorInfo } | null;
}

export type StepOutcome = 'in-progress' | 'ok' | 'error' | 'timeout' | 'skipped';

export interface StepRecord {
  index: number;
  step: PlanStep;
  outcome: StepOutcome;
  arrows: Arrow[];
  notes: Note[];
  clientState: ClientState | null;
  /** The last state change during this step. */
  transition: { from: ClientState; to: ClientState; cause: string } | null;
  pending: PendingRow[];
  registry: RegisterOutcome | null;
  /** Server bytes waiting in the pipe, not yet read by the client, when the step ended. */
  heldBytes: number;
}

/** What a frame the reader completed is, for the arrow. `requests` maps request id keys to methods. */
export function describeItem(item: ReadItem, answered: ReadonlyMap<string, string>): Pick<Arrow, 'kind' | 'method' | 'id' | 'value' | 'detail'> {
  if (item.type === 'error') return { kind: 'unreadable', method: null, id: null, value: null, detail: `${item.kind}: ${item.detail}` };
  const outcome = validateMessage(item.value);
  if (!outcome.ok) return { kind: 'invalid', method: null, id: outcome.id, value: item.value, detail: outcome.reason };
  const message = outcome.message;
  if (isRequest(message)) return { kind: 'request', method: message.method, id: message.id, value: item.value, detail: null };
  if (isNotification(message)) return { kind: 'notification', method: message.method, id: null, value: item.value, detail: null };
  // An error response whose request id could not be read has a null id or none at all (MCP's form).
  const id = message.id ?? null;
  const method = id === null ? null : (answered.get(idKey(id)) ?? null);
  return { kind: isErrorResponse(message) ? 'error-response' : 'response', method, id, value: item.value, detail: null };
}

/** A request arrow adds a waiting row. */
export function withRequest(rows: readonly PendingRow[], arrow: Arrow, step: number): PendingRow[] {
  if (arrow.kind !== 'request' || arrow.id === null || arrow.method === null) return [...rows];
  const key = idKey(arrow.id);
  return [
    ...rows.filter((row) => row.key !== key),
    { key, id: arrow.id, method: arrow.method, sentInStep: step, aroundClient: arrow.aroundClient, status: 'waiting', answeredInStep: null, answerOrder: null, outcome: null },
  ];
}

/** A response the client has now read marks its row answered, in arrival order. */
export function withResponse(rows: readonly PendingRow[], arrow: Arrow, step: number): PendingRow[] {
  if ((arrow.kind !== 'response' && arrow.kind !== 'error-response') || arrow.id === null) return [...rows];
  const key = idKey(arrow.id);
  const order = rows.filter((row) => row.answerOrder !== null).length + 1;
  return rows.map((row) =>
    row.key === key && row.status === 'waiting'
      ? { ...row, status: arrow.kind === 'error-response' ? 'error-answer' : 'answered', answeredInStep: step, answerOrder: order }
      : row,
  );
}

export function withOutcome(rows: readonly PendingRow[], key: string, outcome: PendingRow['outcome']): PendingRow[] {
  return rows.map((row) => (row.key === key ? { ...row, outcome } : row));
}

export function waitingRows(rows: readonly PendingRow[]): PendingRow[] {
  return rows.filter((row) => row.status === 'waiting');
}
