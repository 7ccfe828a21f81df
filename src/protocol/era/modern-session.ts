// One modern (2026-07-28) request, done the way basic/index.mdx, basic/versioning.mdx and
// basic/patterns/mrtr.mdx describe it:
//
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
import { McpRpcError, ProtocolViolationError } from '../client-errors.ts';
import { MRTR_METHODS, pickMutualVersion, readUnsupportedVersion, resultServerInfo, resultTypeOf, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED, withEnvelope, type RequestEnvelope } from './meta.ts';
import { answerInputRequests, capabilitiesFor, type InputHandlers, type RetryFields } from './input-requests.ts';
import { InputRequiredError } from './era-errors.ts';
import type { RpcChannel } from './rpc-channel.ts';

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
