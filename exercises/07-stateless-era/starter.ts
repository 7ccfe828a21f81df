// Exercise 7: the stateless era. Your client of exercise 3 speaks the handshake; here you write the
// modern half that lets it speak the 2026-07-28 revision too. The dual-era client around it
// (DualEraClient) is done: it asks your ModernSession to discover() the server's era, hands the
// pipe to your exercise-3 client when the verdict is 'legacy', and otherwise sends every request
// through your ModernSession.request(). You write four pieces; each throws until you do.
//
// Given: the JSON-RPC channel (RpcChannel: request(method, params, timeoutMs) resolves with the
// result, rejects with McpRpcError / RequestTimeoutError / ClientClosedError), the revision's
// vocabulary in '@protocol/era/meta', and readDiscoverResult.

import type { Implementation } from '@protocol/mcp';
import { ClientClosedError, McpRpcError, ProtocolViolationError, RequestTimeoutError } from '@protocol/client-errors';
import { InputRequiredError } from '@protocol/era/era-errors';
import {
  EraErrorCode,
  isModernProtocolVersion,
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

// ---------------------------------------------------------------------------------------------
// 1. Capabilities and input handlers
// ---------------------------------------------------------------------------------------------

export type InputHandler = (params: Record<string, unknown>) => unknown;
/** One handler per kind of input a server may ask for. */
export type InputHandlers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', InputHandler>>;

/**
 * The clientCapabilities of the envelope: exactly the kinds of input there is a handler for.
 *   'elicitation/create' → elicitation, 'sampling/createMessage' → sampling, 'roots/list' → roots,
 * each as an empty object: { elicitation: {} }. No handlers → {}.
 */
export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  throw new Error('TODO: capabilitiesFor — one capability per input handler');
}

/** The fields an MRTR retry adds to the original params. */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * An InputRequiredResult came back for `method`. For each entry of `result.inputRequests`
 * (key → { method, params }), call the handler for its method with its params and put the answer
 * under the same key in `inputResponses`. No handler for one of them → throw InputRequiredError.
 * Copy `result.requestState` exactly when it is a string; leave it out otherwise.
 */
export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  throw new Error('TODO: answerInputRequests — answer each input request, keep requestState');
}

// ---------------------------------------------------------------------------------------------
// 2. What the answer to server/discover means
// ---------------------------------------------------------------------------------------------

/**
 * One of: { kind: 'modern', version, discover }, { kind: 'retry', version }, { kind: 'legacy', reason },
 * { kind: 'fail', reason }.
 * - a result that readDiscoverResult accepts and that lists a version of `context.ours`:
 *   modern, at the first of ours it lists; a result it refuses, or none of ours: legacy;
 * - error -32022 with data.supported: a version of ours in it → retry with it; none, but some
 *   modern version (isModernProtocolVersion) → fail; only handshake-era versions → legacy;
 *   -32022 without a supported list is not the modern error → legacy;
 * - error -32020 or -32021: a modern server refusing the request → fail;
 * - any other error (-32601 …) → legacy;
 * - timeout: on stdio legacy (a silent local process speaks the handshake); on http fail;
 * - closed: fail.
 */
export function classifyProbe(outcome: ProbeOutcome, context: ProbeContext): ProbeVerdict {
  throw new Error('TODO: classifyProbe — modern, retry, legacy or fail');
}

// ---------------------------------------------------------------------------------------------
// 3. The session: discover(), the envelope, -32022, resultType and MRTR
// ---------------------------------------------------------------------------------------------

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

  /**
   * Send server/discover (params: just the envelope, at the first version offered, with the
   * options' timeoutMs) and classify what comes back: a result, an McpRpcError (code, rpcMessage,
   * data), a RequestTimeoutError (timeout) or a ClientClosedError (closed, with its reason).
   * A 'retry' verdict: probe once more with that version; a second 'retry' is a fail.
   * A 'modern' verdict: speak that version from now on. Call onProbe after every probe.
   */
  async discover(options: DiscoverOptions): Promise<DiscoverVerdict> {
    throw new Error('TODO: discover — the server/discover probe');
  }

  /**
   * Send `method` with the envelope in params._meta (keep the caller's params and _meta keys) and
   * return the complete result:
   * - -32022 naming a version of `versions`: switch to it (onVersionChange), send once more;
   * - not an object: ProtocolViolationError; resultType missing or 'complete': the answer;
   * - 'input_required' on tools/call, resources/read, prompts/get: answerInputRequests, then send
   *   the same request again with the original params plus the retry fields, up to
   *   maxInputRounds results in all (then InputRequiredError); anywhere else, or any other
   *   resultType: ProtocolViolationError.
   */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    throw new Error('TODO: request — envelope, -32022, resultType, MRTR');
  }
}
