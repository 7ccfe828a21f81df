// What the presenter's page tells follow views over a BroadcastChannel, and the check a follow view
// runs on everything that arrives. Any page of the origin can post on the channel (another tab, an
// older build still open, a curious console), so a follow view renders only what passes
// `decodeFollowMessage` and ignores the rest.

import type { ClientState } from '../../protocol/client-errors.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { HostKind } from '../../runtime/host.ts';
import type { DriverKind, ErrorInfo, RegisterOutcome, RegistryEntryView } from '../../sandbox/client-driver.ts';
import type { ChunkSpan } from '../../protocol/inspect/chunk-replay.ts';
import type { InspectTarget } from '../protocol/inspect-target.ts';
import type { PlanStep } from '../protocol/step-plan.ts';
import type { Arrow, Note, PendingRow, StepRecord } from '../protocol/stepper-records.ts';
import type { StepperState, StepperStatus, WaitingFor } from '../protocol/stepper-types.ts';
import { isHttpFollowState, type HttpFollowState } from './http-follow.ts';
import { arrayOf, isBoolean, isBytes, isCount, isJson, isNumber, isPlainObject, isString, literal, nullable, objectOf, oneOf, type Guard } from './shape.ts';

export const FOLLOW_CHANNEL = 'mcp-playground-presenter';
/** Bumped when the message shape changes, so a follow view from another build ignores it. */
export const FOLLOW_PROTOCOL = 1;

/** Everything the follow view draws: the shown steps, the step in progress, the open frame. */
export interface FollowState {
  /** The records the presenter shows (records.slice(0, cursor)). */
  records: StepRecord[];
  total: number;
  status: StepperStatus;
  /** The step in progress while it has not drawn anything yet (the diagram's waiting dot). */
  waiting: { step: number; waitingFor: WaitingFor } | null;
  /** The plan step after the shown ones, for "Next: …". */
  next: PlanStep | null;
  scenario: string | null;
  client: DriverKind;
  server: { framing: FramingName; faults: string[]; host: HostKind } | null;
  /** The frame open in the presenter's byte inspector. */
  inspect: InspectTarget | null;
  language: 'en' | 'zh-CN';
}

export type FollowMessage =
  | { type: 'state'; protocol: typeof FOLLOW_PROTOCOL; presenter: string; state: FollowState }
  /** The presenter shows the HTTP stepper (a type of its own: an older follow view ignores it). */
  | { type: 'http-state'; protocol: typeof FOLLOW_PROTOCOL; presenter: string; state: HttpFollowState }
  /** A follow view that just opened asks presenters for their state. */
  | { type: 'hello'; protocol: typeof FOLLOW_PROTOCOL }
  /** The presenter's page is closing. */
  | { type: 'bye'; protocol: typeof FOLLOW_PROTOCOL; presenter: string };

/** The state to send, from the stepper and the inspector as the presenter sees them. */
export function followStateOf(stepper: StepperState, inspect: InspectTarget | null, language: string): FollowState {
  const { status, records, cursor, config, server } = stepper;
  return {
    records: records.slice(0, cursor),
    total: config.plan.length,
    status,
    waiting: status.status === 'stepping' && cursor === records.length ? { step: status.index, waitingFor: status.waitingFor } : null,
    next: config.plan[cursor] ?? null,
    scenario: config.scenario,
    client: config.client,
    server: server ? { framing: server.framing, faults: [...server.faults], host: server.host } : null,
    // The follow view shows the frame, not the replay; and a view into a bigger buffer would be
    // cloned with the whole buffer, so the frame's bytes travel as their own copy.
    inspect: inspect ? { ...inspect, bytes: inspect.bytes.slice(), replay: [] } : null,
    language: language === 'zh-CN' ? 'zh-CN' : 'en',
  };
}

// ---- the check ----

const isId: Guard<JsonRpcId> = (value): value is JsonRpcId => typeof value === 'string' || Number.isSafeInteger(value);
const isFraming = literal('content-length', 'ndjson') as Guard<FramingName>;
const isDirection = literal('c2s', 's2c');
const isClientState = literal('new', 'initialized', 'ready', 'closed') as Guard<ClientState>;
const isDriver = literal('reference', 'learner') as Guard<DriverKind>;
const isArrowKind = literal('request', 'notification', 'response', 'error-response', 'invalid', 'unreadable', 'eof', 'exit') as Guard<Arrow['kind']>;
const isWaitingFor = literal('server', 'bytes-out', 'response', 'eof', 'exit', 'registry') as Guard<WaitingFor>;
const isNoteKind = literal('load-failed', 'threw', 'protocol-error', 'uncaught', 'crashed', 'nothing-sent', 'no-response', 'nothing-to-read', 'stdin-open', 'still-running', 'registered', 'register-refused', 'result') as Guard<Note['kind']>;

const isErrorInfo = objectOf<ErrorInfo>({ name: isString, message: isString, line: nullable(isCount), code: nullable(isNumber) });

const isPlanStep: Guard<PlanStep> = (value): value is PlanStep => {
  if (!isPlainObject(value)) return false;
  switch (value.kind) {
    case 'initialize':
    case 'connect':
    case 'fallback':
    case 'notify-initialized':
    case 'list-tools':
    case 'receive':
    case 'close':
    case 'exit':
      return true;
    case 'call-tool':
      return isString(value.name) && isPlainObject(value.args) && isJson(value.args);
    case 'raw':
      return isPlainObject(value.message) && isJson(value.message) && (!('method' in value.message) || isString(value.message.method));
    case 'register':
      return isString(value.prefix);
    default:
      return false;
  }
};

const isArrow = objectOf<Arrow>({
  seq: isCount,
  direction: isDirection,
  kind: isArrowKind,
  method: nullable(isString),
  id: nullable(isId),
  value: isJson,
  detail: nullable(isString),
  frame: nullable(objectOf({ offset: isCount, length: isCount })),
  chunks: arrayOf(isCount),
  t: nullable(isNumber),
  arrivedAt: nullable(isNumber),
  drawnAt: isNumber,
  aroundClient: isBoolean,
  exit: nullable(objectOf({ code: nullable(isNumber), signal: nullable(isString) })),
});

const isNote = objectOf<Note>({
  seq: isCount,
  lane: literal('client', 'pipe', 'server'),
  severity: literal('error', 'warning', 'info'),
  kind: isNoteKind,
  who: literal('reference', 'learner', 'server', 'stepper'),
  detail: isString,
  error: nullable(isErrorInfo),
  drawnAt: isNumber,
});

const isOutcome = nullable(oneOf(objectOf({ ok: literal(true), summary: isString }), objectOf({ ok: literal(false), error: isErrorInfo }))) as Guard<PendingRow['outcome']>;

const isPendingRow = objectOf<PendingRow>({
  key: isString,
  id: isId,
  method: isString,
  sentInStep: isCount,
  aroundClient: isBoolean,
  status: literal('waiting', 'answered', 'error-answer'),
  answeredInStep: nullable(isCount),
  answerOrder: nullable(isCount),
  outcome: isOutcome,
});

const isRegistry = objectOf<RegisterOutcome>({
  ok: isBoolean,
  count: nullable(isCount),
  error: nullable(isErrorInfo),
  registry: arrayOf(objectOf<RegistryEntryView>({ name: isString, source: literal('local', 'mcp'), remoteName: nullable(isString) })),
});

const isRecord = objectOf<StepRecord>({
  index: isCount,
  step: isPlanStep,
  outcome: literal('in-progress', 'ok', 'error', 'timeout', 'skipped'),
  arrows: arrayOf(isArrow),
  notes: arrayOf(isNote),
  clientState: nullable(isClientState),
  transition: nullable(objectOf({ from: isClientState, to: isClientState, cause: isString })),
  pending: arrayOf(isPendingRow),
  registry: nullable(isRegistry),
  heldBytes: isCount,
});

const isStatus: Guard<StepperStatus> = (value): value is StepperStatus => {
  if (!isPlainObject(value)) return false;
  switch (value.status) {
    case 'idle':
    case 'ready':
    case 'done':
      return true;
    case 'stepping':
      return isCount(value.index) && isWaitingFor(value.waitingFor) && isBoolean(value.auto);
    case 'failed':
      return isString(value.reason);
    default:
      return false;
  }
};

const isChunkSpan = objectOf<ChunkSpan>({ index: isCount, start: isCount, end: isCount, chunkLength: isCount, t: nullable(isNumber) });

const isInspectTarget = objectOf<InspectTarget>({
  direction: isDirection,
  framing: isFraming,
  bytes: isBytes,
  streamOffset: isCount,
  chunks: arrayOf(isChunkSpan),
  replay: arrayOf(isBytes),
  kind: isArrowKind,
  method: nullable(isString),
  id: nullable(isId),
  value: isJson,
  problem: nullable(isString),
});

const isFollowState = objectOf<FollowState>({
  records: arrayOf(isRecord, 1000),
  total: isCount,
  status: isStatus,
  waiting: nullable(objectOf({ step: isCount, waitingFor: isWaitingFor })),
  next: nullable(isPlanStep),
  scenario: nullable(isString),
  client: isDriver,
  server: nullable(objectOf({ framing: isFraming, faults: arrayOf(isString, 32), host: literal('webcontainer', 'bridge', 'worker') })),
  inspect: nullable(isInspectTarget),
  language: literal('en', 'zh-CN'),
});

/** The message, when it is one this build understands; null for anything else. */
export function decodeFollowMessage(data: unknown): FollowMessage | null {
  if (!isPlainObject(data) || data.protocol !== FOLLOW_PROTOCOL) return null;
  switch (data.type) {
    case 'hello':
      return { type: 'hello', protocol: FOLLOW_PROTOCOL };
    case 'bye':
      return isString(data.presenter) ? { type: 'bye', protocol: FOLLOW_PROTOCOL, presenter: data.presenter } : null;
    case 'state': {
      if (!isString(data.presenter) || !isFollowState(data.state)) return null;
      const state = data.state;
      // The rows must agree with each other, or the diagram would draw steps that are not there.
      if (state.records.length > state.total || state.records.some((record, index) => record.index !== index)) return null;
      return { type: 'state', protocol: FOLLOW_PROTOCOL, presenter: data.presenter, state };
    }
    case 'http-state':
      return isString(data.presenter) && isHttpFollowState(data.state) ? { type: 'http-state', protocol: FOLLOW_PROTOCOL, presenter: data.presenter, state: data.state } : null;
    default:
      return null;
  }
}
