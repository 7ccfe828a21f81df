// Exercise 7: the stateless era. You write the modern half of the dual-era client; DualEraClient
// (done) calls discover(), hands the pipe to the exercise-3 client on 'legacy', and otherwise sends
// every request through request(). Given: RpcChannel (request(method, params, timeoutMs) resolves
// with the result or rejects with McpRpcError / RequestTimeoutError / ClientClosedError), the
// vocabulary in '@protocol/era/meta', and readDiscoverResult. Each piece throws until you write it.

import type { Implementation } from '@protocol/mcp';
import { ClientClosedError, McpRpcError, ProtocolViolationError, RequestTimeoutError } from '@protocol/client-errors';
import { InputRequiredError } from '@protocol/era/era-errors';
import {
  EraErrorCode,
  isModernProtocolVersion,
  LEGACY_PROTOCOL_VERSIONS,
  MRTR_METHODS,
  pickMutualVersion,
  readUnsupportedVersion,
  resultServerInfo,
  resultTypeOf,
  RESULT_TYPE_COMPLETE,
  RESULT_TYPE_INPUT_REQUIRED,
  withEnvelope,
  type RequestEnvelope,
} from '@protocol/era/meta';
import { readDiscoverResult, type ProbeContext, type ProbeOutcome, type ProbeTransportKind, type ProbeVerdict } from '@protocol/era/probe';
import type { RpcChannel } from '@protocol/era/rpc-channel';

// 1. Capabilities and input handlers

export type InputHandler = (params: Record<string, unknown>) => unknown;
/** One handler per kind of input a server may ask for. */
export type InputHandlers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', InputHandler>>;

/** Exactly the kinds of input with a handler: 'elicitation/create' → { elicitation: {} }, sampling, roots. */
export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  throw new Error('TODO: capabilitiesFor — one capability per input handler');
}

/** The fields an MRTR retry adds to the original params. */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** inputResponses under the keys of result.inputRequests (no handler: InputRequiredError); requestState copied when a string. */
export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  throw new Error('TODO: answerInputRequests — answer each input request, keep requestState');
}

// 2. What the answer to server/discover means

/** 'modern' (with version and discover), 'retry' (version), 'legacy' or 'fail' (reason): the lesson's table. */
export function classifyProbe(outcome: ProbeOutcome, context: ProbeContext): ProbeVerdict {
  throw new Error('TODO: classifyProbe — modern, retry, legacy or fail');
}

// 3. The session: discover(), the envelope, -32022, resultType and MRTR

export interface ModernSessionOptions {
  /** The version to start with. */
  version: string;
  /** Every modern version the client speaks, preferred first. */
  versions: readonly string[];
  clientInfo: Implementation;
  inputHandlers: InputHandlers;
  requestTimeoutMs: number;
  /** Input rounds per request before giving up. Default 8. */
  maxInputRounds?: number;
  /** Called when a -32022 on a request made the session switch version. */
  onVersionChange?: (version: string) => void;
}

export interface DiscoverOptions {
  transport: ProbeTransportKind;
  timeoutMs: number;
  /** The versions to offer, preferred first; `options.versions` when not given. */
  versions?: readonly string[];
  /** Called after each probe sent. */
  onProbe?: (version: string, outcome: ProbeOutcome, verdict: ProbeVerdict) => void;
}

export type DiscoverVerdict = Exclude<ProbeVerdict, { kind: 'retry' }>;

export class ModernSession {
  constructor(
    private readonly channel: RpcChannel,
    private readonly options: ModernSessionOptions,
  ) {}

  /** The version the session speaks now. */
  get version(): string {
    throw new Error('TODO: version');
  }

  /** The serverInfo the latest result carried in its _meta (resultServerInfo), if any did. */
  get serverInfo(): Implementation | undefined {
    return undefined;
  }

  /** { protocolVersion: the current version, clientCapabilities: capabilitiesFor(handlers), clientInfo }. */
  envelope(): RequestEnvelope {
    throw new Error('TODO: envelope');
  }

  /** Probe with just the envelope; a 'retry' verdict probes once more; 'modern' switches version; onProbe each time. */
  async discover(options: DiscoverOptions): Promise<DiscoverVerdict> {
    throw new Error('TODO: discover — the server/discover probe');
  }

  /** The envelope on every request, one retry after -32022, resultType, MRTR rounds up to maxInputRounds. */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    throw new Error('TODO: request — envelope, -32022, resultType, MRTR');
  }
}
