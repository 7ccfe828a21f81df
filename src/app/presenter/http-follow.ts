// The follow view's picture of the HTTP stepper: what the presenter's HTTP session shows (every
// relayed connection's bytes as the tap reported them, chunk by chunk, what the client holds, the
// connection open in the HTTP inspector), built on the presenter's page and checked on arrival like
// the stdio stepper's state (follow-message.ts), since any page of the origin can post on the channel.

import type { JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { HostKind } from '../../runtime/host.ts';
import type { HttpExchangeRecord } from '../protocol/http-exchanges.ts';
import { httpSteps, HTTP_STEPS, MODERN_HTTP_STEPS, type HttpEra, type HttpHolds, type HttpSessionState, type HttpStepId, type HttpStepperStatus, type HttpWaitFailure, type ProgressSeen } from '../protocol/http-session-store.ts';
import { arrayOf, isBoolean, isBytes, isCount, isPlainObject, isString, literal, nullable, objectOf, type Guard } from './shape.ts';

export interface HttpFollowState {
  /** Tells this state from the stdio stepper's (FollowState has no transport). */
  transport: 'http';
  /** The scene's era: its steps are the handshake session's or 2026-07-28's. */
  era: HttpEra;
  /** Steps finished. */
  cursor: number;
  total: number;
  status: HttpStepperStatus;
  host: HostKind | null;
  exchanges: HttpExchangeRecord<HttpStepId>[];
  holds: HttpHolds;
  progress: ProgressSeen[];
  /** The connection open in the presenter's HTTP inspector. */
  open: number | null;
  language: 'en' | 'zh-CN';
}

/** At most this many connections travel (a session has five or six; a runaway one is cut, oldest first). */
export const MAX_FOLLOW_EXCHANGES = 200;

export function httpFollowStateOf(session: Pick<HttpSessionState, 'era' | 'status' | 'host' | 'cursor' | 'exchanges' | 'holds' | 'progress'>, open: number | null, language: string): HttpFollowState {
  return {
    transport: 'http',
    era: session.era,
    cursor: session.cursor,
    total: httpSteps(session.era).length,
    status: session.status,
    host: session.host,
    // Each chunk travels as its own copy: a view into a bigger buffer would be cloned with all of it.
    exchanges: session.exchanges.slice(-MAX_FOLLOW_EXCHANGES).map((exchange) => ({ ...exchange, c2s: exchange.c2s.map((chunk) => chunk.slice()), s2c: exchange.s2c.map((chunk) => chunk.slice()) })),
    holds: { ...session.holds, pending: session.holds.pending.map((entry) => ({ ...entry })) },
    progress: session.progress.map((entry) => ({ ...entry })),
    open,
    language: language === 'zh-CN' ? 'zh-CN' : 'en',
  };
}

// ---- the check ----

const isId: Guard<JsonRpcId> = (value): value is JsonRpcId => typeof value === 'string' || Number.isSafeInteger(value);
const isStep = literal(...HTTP_STEPS, ...MODERN_HTTP_STEPS) as Guard<HttpStepId>;

/** The stepper's own reason for stopping (http-session-store.ts), which the follow view words in its language. */
const isWaitFailure = (value: unknown): value is HttpWaitFailure => {
  if (!isPlainObject(value)) return false;
  if (value.code === 'session-ended') return Object.keys(value).length === 1;
  return value.code === 'wire-timeout' && typeof value.seconds === 'number' && Number.isFinite(value.seconds) && value.seconds >= 0 && literal('initialized', 'listen', 'delete')(value.step) && Object.keys(value).length === 3;
};

const isStatus: Guard<HttpStepperStatus> = (value): value is HttpStepperStatus => {
  if (!isPlainObject(value)) return false;
  switch (value.status) {
    case 'idle':
    case 'ready':
    case 'done':
      return true;
    case 'stepping':
      return isStep(value.step);
    case 'failed':
      return isString(value.reason) && (value.why === undefined || isWaitFailure(value.why));
    default:
      return false;
  }
};

type ExchangeCore = Pick<HttpExchangeRecord<HttpStepId>, 'conn' | 'step' | 'c2s' | 's2c' | 'request' | 'status' | 'contentType' | 'closed'>;
const EXCHANGE_CORE: { [K in keyof ExchangeCore]-?: Guard<ExchangeCore[K]> } = {
  conn: isCount,
  step: nullable(isStep),
  c2s: arrayOf(isBytes),
  s2c: arrayOf(isBytes),
  request: isString,
  status: nullable(isCount),
  contentType: nullable(isString),
  closed: isBoolean,
};
const isExchangeCore = objectOf<ExchangeCore>(EXCHANGE_CORE);

/**
 * The fields the diagram and the inspector read, each checked; anything else a record carries
 * (the recorder may note more, such as the session id a request went out with) only as text, a
 * number, a flag or null, so nothing but plain values reaches the view.
 */
function isExchange(value: unknown): value is HttpExchangeRecord<HttpStepId> {
  if (!isExchangeCore(value)) return false;
  return Object.entries(value).every(([key, field]) => key in EXCHANGE_CORE || field === null || ['string', 'number', 'boolean'].includes(typeof field));
}

const isHolds = objectOf<HttpHolds>({
  sessionId: nullable(isString),
  protocolVersion: nullable(isString),
  pending: arrayOf(objectOf<{ id: JsonRpcId; method: string }>({ id: isId, method: isString }), 100),
  openStreams: isCount,
});

const isShape = objectOf<HttpFollowState>({
  transport: literal('http'),
  era: literal('handshake', 'modern'),
  cursor: isCount,
  total: isCount,
  status: isStatus,
  host: nullable(literal('webcontainer', 'bridge', 'worker')),
  exchanges: arrayOf(isExchange, MAX_FOLLOW_EXCHANGES),
  holds: isHolds,
  progress: arrayOf(objectOf<ProgressSeen>({ progress: isString, total: isString, message: nullable(isString) }), 1000),
  open: nullable(isCount),
  language: literal('en', 'zh-CN'),
});

/** The state, when it is one this build draws: the right shape, and parts that agree with each other. */
export function isHttpFollowState(value: unknown): value is HttpFollowState {
  if (!isShape(value)) return false;
  if (value.total !== httpSteps(value.era).length || value.cursor > value.total) return false;
  const conns = value.exchanges.map((exchange) => exchange.conn);
  return new Set(conns).size === conns.length && (value.open === null || conns.includes(value.open));
}
