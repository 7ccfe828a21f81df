// Which frames belong to which tool call. While a call runs, the tools/call requests that crossed
// stdin are its own (the loop runs one call at a time); its responses are found by JSON-RPC id,
// never by order. The turn's frames are grouped into diagram bands: the connection (handshake and
// tools/list) first, then one band per remote call.

import { idKey, type JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { PlanStep } from '../protocol/step-plan.ts';
import type { Arrow, StepRecord } from '../protocol/stepper-records.ts';

/** A call's window: arrows with seq in [firstSeq, endSeq) were drawn while it ran. */
export interface CallWindow {
  call: number;
  name: string;
  firstSeq: number;
  /** null while the call is still running. */
  endSeq: number | null;
}

export interface CallFrames {
  call: number;
  requests: Arrow[];
  responses: Arrow[];
}

/** The tools/call requests sent during the window, and every response carrying one of their ids. */
export function framesOfCall(window: CallWindow, arrows: readonly Arrow[]): CallFrames {
  const requests = arrows.filter((arrow) => arrow.seq >= window.firstSeq && (window.endSeq === null || arrow.seq < window.endSeq) && arrow.direction === 'c2s' && arrow.kind === 'request' && arrow.method === 'tools/call');
  const ids = new Set(requests.map((arrow) => idKey(arrow.id as JsonRpcId)));
  const responses = arrows.filter((arrow) => arrow.direction === 's2c' && (arrow.kind === 'response' || arrow.kind === 'error-response') && arrow.id !== null && ids.has(idKey(arrow.id)));
  return { call: window.call, requests, responses };
}

/**
 * Diagram records: band 0 holds every arrow not claimed by a call (handshake, tools/list, stray
 * frames), then one band per call that sent something. `bandOfCall` says which band a call got.
 */
export function turnRecords(arrows: readonly Arrow[], windows: readonly CallWindow[]): { records: StepRecord[]; bandOfCall: Map<number, number> } {
  const claimed = new Set<number>();
  const perCall: Array<{ call: number; name: string; arrows: Arrow[] }> = [];
  for (const window of windows) {
    const frames = framesOfCall(window, arrows);
    const own = [...frames.requests, ...frames.responses].sort((a, b) => a.seq - b.seq);
    if (own.length === 0) continue;
    for (const arrow of own) claimed.add(arrow.seq);
    perCall.push({ call: window.call, name: window.name, arrows: own });
  }
  const record = (index: number, step: PlanStep, list: Arrow[]): StepRecord => ({
    index,
    step,
    outcome: 'ok',
    arrows: list,
    notes: [],
    clientState: null,
    transition: null,
    pending: [],
    registry: null,
    heldBytes: 0,
  });
  const records = [record(0, { kind: 'list-tools' }, arrows.filter((arrow) => !claimed.has(arrow.seq)))];
  const bandOfCall = new Map<number, number>();
  for (const entry of perCall) {
    bandOfCall.set(entry.call, records.length);
    records.push(record(records.length, { kind: 'call-tool', name: entry.name, args: {} }, entry.arrows));
  }
  return { records, bandOfCall };
}
