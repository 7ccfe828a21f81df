// The modern (2026-07-28) side of the dual-era client, done the way basic/index.mdx,
// basic/versioning.mdx and basic/patterns/mrtr.mdx describe it. Exercise 7 (exercises/07-stateless-era)
// has the learner write this module, probe.ts's classifyProbe and input-requests.ts in one file.
//
//   0. discover(): the `server/discover` probe, with the full envelope; its answer is classified by
//      classifyProbe (modern, retry, legacy or fail); a -32022 naming a version we speak is asked
//      again with it, once. A 'legacy' verdict is the caller's cue to run the handshake instead;
//   1. the `_meta` envelope goes on every request: protocolVersion, clientCapabilities, clientInfo;
//   2. -32022 UnsupportedProtocolVersion names the versions the server supports: pick the newest
//      we also speak and send the request once more (a new id), then keep that version;
//   3. the result's `resultType` says what it is: missing or "complete" is the answer;
//      "input_required" (only on tools/call, resources/read, prompts/get) asks for input — answer
//      its inputRequests with the caller's handlers and retry the same request with
//      `inputResponses` and the exact `requestState`, as a new request with a new id;
//      any other value is invalid.
//
// There is no session behind it: each call stands alone, and the only thing kept between calls
// is the version the server accepted.

import type { Implementation } from '../mcp.ts';
import { ClientClosedError, McpRpcError, ProtocolViolationError, RequestTimeoutError } from '../client-errors.ts';
import { MRTR_METHODS, pickMutualVersion, readUnsupportedVersion, resultServerInfo, resultTypeOf, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED, withEnvelope, type RequestEnvelope } from './meta.ts';
import { answerInputRequests, capabilitiesFor, type InputHandlers, type RetryFields } from './input-requests.ts';
import { InputRequiredError } from './era-errors.ts';
import type { RpcChannel } from './rpc-channel.ts';
import { classifyProbe, type ProbeOutcome, type ProbeTransportKind, type ProbeVerdict } from './probe.ts';

export interface ModernSessionOptions {
  /** The version to start with (from the probe, a cache, or a pin). */
  version: string;
  /** Every modern version the client speaks, preferred first: where a -32022 retry picks from. */
  versions: readonly string[];
  clientInfo: Implementation;
  inputHandlers: InputHandlers;
  requestTimeoutMs: number;
  /** Input rounds per request before giving up (a server may ask again and again). Default 8. */
  maxInputRounds?: number;
  /** Told when a -32022 made the client switch version, so the era cache can learn it. */
  onVersionChange?: (version: string) => void;
}

export interface DiscoverOptions {
  /** What silence means depends on the transport (probe.ts). */
  transport: ProbeTransportKind;
  timeoutMs: number;
  /** The versions to offer, preferred first; the session's `versions` when not given (one, when pinned). */
  versions?: readonly string[];
  /** Told about each probe sent (at most two): its version, what came back and what it means. */
  onProbe?: (version: string, outcome: ProbeOutcome, verdict: ProbeVerdict) => void;
}

/** What discover() settles on: a -32022 retry has already been made by then. */
export type DiscoverVerdict = Exclude<ProbeVerdict, { kind: 'retry' }>;

export class ModernSession {
  private currentVersion: string;
  private lastServerInfo: Implementation | undefined;

  constructor(
    private readonly channel: RpcChannel,
    private readonly options: ModernSessionOptions,
  ) {
    this.currentVersion = options.version;
  }

  get version(): string {
    return this.currentVersion;
  }

  /** The serverInfo the latest result carried in its `_meta`. */
  get serverInfo(): Implementation | undefined {
    return this.lastServerInfo;
  }

  /** The envelope this client puts in every request's `_meta`. */
  envelope(): RequestEnvelope {
    return {
      protocolVersion: this.currentVersion,
      clientCapabilities: capabilitiesFor(this.options.inputHandlers),
      clientInfo: this.options.clientInfo,
    };
  }

  /**
   * Ask the server which era it speaks. Never 'retry': a -32022 naming a version we speak is asked
   * again with that version, once; a second -32022 is a failure. On 'modern' the session speaks the
   * version the server chose from then on.
   */
  async discover(options: DiscoverOptions): Promise<DiscoverVerdict> {
    const ours = options.versions ?? this.options.versions;
    let version = ours[0]!;
    let verdict = await this.probe(version, ours, options);
    if (verdict.kind === 'retry') {
      version = verdict.version;
      verdict = await this.probe(version, ours, options);
    }
    if (verdict.kind === 'retry') return { kind: 'fail', reason: `the server rejected ${version} with -32022 twice` };
    if (verdict.kind === 'modern') this.currentVersion = verdict.version;
    return verdict;
  }

  /** One `server/discover` with the full envelope at `version`, and what its answer means. */
  private async probe(version: string, ours: readonly string[], options: DiscoverOptions): Promise<ProbeVerdict> {
    const envelope = { ...this.envelope(), protocolVersion: version };
    let outcome: ProbeOutcome;
    try {
      const result = await this.channel.request('server/discover', withEnvelope(undefined, envelope), options.timeoutMs);
      // The DiscoverResult is a result too: its serverInfo is the latest one seen.
      this.lastServerInfo = resultServerInfo(result) ?? this.lastServerInfo;
      outcome = { kind: 'result', result };
    } catch (error) {
      if (error instanceof McpRpcError) outcome = { kind: 'error', code: error.code, message: error.rpcMessage, data: error.data };
      else if (error instanceof RequestTimeoutError) outcome = { kind: 'timeout' };
      else if (error instanceof ClientClosedError) outcome = { kind: 'closed', reason: error.reason };
      else throw error;
    }
    const verdict = classifyProbe(outcome, { ours, transport: options.transport });
    options.onProbe?.(version, outcome, verdict);
    return verdict;
  }

  /** Send `method` and return its complete result, answering any input the server asks for on the way. */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const maxRounds = this.options.maxInputRounds ?? 8;
    let retry: RetryFields = {};
    for (let round = 0; ; round++) {
      const result = await this.send(method, { ...params, ...retry });
      const type = resultTypeOf(result);
      if (type === RESULT_TYPE_COMPLETE) return result;
      if (type !== RESULT_TYPE_INPUT_REQUIRED) throw new ProtocolViolationError(method, `unknown resultType ${JSON.stringify(type)}`);
      if (!MRTR_METHODS.includes(method)) throw new ProtocolViolationError(method, `an InputRequiredResult is allowed only on ${MRTR_METHODS.join(', ')}`);
      if (round + 1 >= maxRounds) throw new InputRequiredError(method, `still asking after ${maxRounds} rounds`, result);
      // Only this request's retry carries the answers: nothing leaks into other requests.
      retry = await answerInputRequests(method, result, this.options.inputHandlers);
    }
  }

  /** One request with the envelope; on -32022 once more with a version both sides speak. */
  private async send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    let raw: unknown;
    try {
      raw = await this.channel.request(method, withEnvelope(params, this.envelope()), this.options.requestTimeoutMs);
    } catch (error) {
      const mutual = this.mutualVersionAfter(error);
      if (mutual === undefined) throw error;
      this.currentVersion = mutual;
      this.options.onVersionChange?.(mutual);
      // A second -32022 is not retried: the server contradicted itself, and the caller sees it.
      raw = await this.channel.request(method, withEnvelope(params, this.envelope()), this.options.requestTimeoutMs);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ProtocolViolationError(method, 'the result is not an object');
    const result = raw as Record<string, unknown>;
    this.lastServerInfo = resultServerInfo(result) ?? this.lastServerInfo;
    return result;
  }

  /** The version to retry with when `error` is a -32022 naming one we speak. */
  private mutualVersionAfter(error: unknown): string | undefined {
    if (!(error instanceof McpRpcError)) return undefined;
    const data = readUnsupportedVersion(error);
    return data === undefined ? undefined : pickMutualVersion(this.options.versions, data.supported);
  }
}
