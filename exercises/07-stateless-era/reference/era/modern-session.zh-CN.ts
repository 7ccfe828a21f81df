// 双时代客户端的新时代（2026-07-28）一侧，按 basic/index.mdx、basic/versioning.mdx 和
// basic/patterns/mrtr.mdx 的描述实现。练习 7（exercises/07-stateless-era）让学员在一个文件里
// 写出这个模块、probe.ts 的 classifyProbe 和 input-requests.ts。
//
//   0. discover()：`server/discover` 探测，带完整的信封；它的回答由 classifyProbe 分类
//      （modern、retry、legacy 或 fail）；-32022 指出了一个我们支持的版本时，用那个版本再问一次，
//      只问一次。'legacy' 的判定是给调用方的信号：改为执行握手；
//   1. 每个请求都带上 `_meta` 信封：protocolVersion、clientCapabilities、clientInfo；
//   2. -32022 UnsupportedProtocolVersion 列出服务器支持的版本：从中挑出我们也支持的最新版本，
//      把请求再发一次（用新的 id），之后就沿用这个版本；
//   3. 结果的 `resultType` 说明它是什么：缺省或 "complete" 就是回答；
//      "input_required"（只出现在 tools/call、resources/read、prompts/get 上）表示需要输入——
//      用调用方的处理函数回答它的 inputRequests，再带着 `inputResponses` 和原样的 `requestState`
//      重试同一个请求，作为一个使用新 id 的新请求；
//      其他任何值都是非法的。
//
// 它背后没有会话：每次调用都是独立的，调用之间唯一保留的是服务器接受的那个版本。

import type { Implementation } from '../mcp.ts';
import { ClientClosedError, McpRpcError, ProtocolViolationError, RequestTimeoutError } from '../client-errors.ts';
import { MRTR_METHODS, pickMutualVersion, readUnsupportedVersion, resultServerInfo, resultTypeOf, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED, withEnvelope, type RequestEnvelope } from './meta.ts';
import { answerInputRequests, capabilitiesFor, type InputHandlers, type RetryFields } from './input-requests.ts';
import { InputRequiredError } from './era-errors.ts';
import type { RpcChannel } from './rpc-channel.ts';
import { classifyProbe, type ProbeOutcome, type ProbeTransportKind, type ProbeVerdict } from './probe.ts';

export interface ModernSessionOptions {
  /** 开始时使用的版本（来自探测、缓存或固定设置）。 */
  version: string;
  /** 客户端支持的所有新时代版本，优先的在前：-32022 重试时从这里挑选。 */
  versions: readonly string[];
  clientInfo: Implementation;
  inputHandlers: InputHandlers;
  requestTimeoutMs: number;
  /** 每个请求最多进行几轮输入就放弃（服务器可能一次又一次地要）。默认 8。 */
  maxInputRounds?: number;
  /** 当 -32022 让客户端换了版本时通知它，好让时代缓存记住。 */
  onVersionChange?: (version: string) => void;
}

export interface DiscoverOptions {
  /** 沉默意味着什么取决于传输（probe.ts）。 */
  transport: ProbeTransportKind;
  timeoutMs: number;
  /** 要提供的版本，优先的在前；没给出时用会话的 `versions`（固定版本时只有一个）。 */
  versions?: readonly string[];
  /** 每发出一次探测（最多两次）都会通知：它的版本、得到了什么回答，以及这意味着什么。 */
  onProbe?: (version: string, outcome: ProbeOutcome, verdict: ProbeVerdict) => void;
}

/** discover() 最终确定的结果：此时 -32022 重试已经做过了。 */
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

  /** 最近一个结果在其 `_meta` 中携带的 serverInfo。 */
  get serverInfo(): Implementation | undefined {
    return this.lastServerInfo;
  }

  /** 这个客户端放进每个请求 `_meta` 的信封。 */
  envelope(): RequestEnvelope {
    return {
      protocolVersion: this.currentVersion,
      clientCapabilities: capabilitiesFor(this.options.inputHandlers),
      clientInfo: this.options.clientInfo,
    };
  }

  /**
   * 询问服务器属于哪个时代。从不返回 'retry'：-32022 指出了一个我们支持的版本时，用那个版本
   * 再问一次，只问一次；第二个 -32022 就是失败。得到 'modern' 时，会话从此使用服务器选定的版本。
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

  /** 用 `version` 和完整的信封发一次 `server/discover`，以及它的回答意味着什么。 */
  private async probe(version: string, ours: readonly string[], options: DiscoverOptions): Promise<ProbeVerdict> {
    const envelope = { ...this.envelope(), protocolVersion: version };
    let outcome: ProbeOutcome;
    try {
      const result = await this.channel.request('server/discover', withEnvelope(undefined, envelope), options.timeoutMs);
      // DiscoverResult 也是一个结果：它带的 serverInfo 就是目前最新的。
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

  /** 发送 `method` 并返回它的完整结果，途中回答服务器要求的任何输入。 */
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
      // 只有这个请求的重试带着这些回答：不会泄漏到其他请求里。
      retry = await answerInputRequests(method, result, this.options.inputHandlers);
    }
  }

  /** 带信封发一个请求；遇到 -32022 时，用双方都支持的版本再发一次。 */
  private async send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    let raw: unknown;
    try {
      raw = await this.channel.request(method, withEnvelope(params, this.envelope()), this.options.requestTimeoutMs);
    } catch (error) {
      const mutual = this.mutualVersionAfter(error);
      if (mutual === undefined) throw error;
      this.currentVersion = mutual;
      this.options.onVersionChange?.(mutual);
      // 第二个 -32022 不再重试：服务器自相矛盾了，让调用方看到它。
      raw = await this.channel.request(method, withEnvelope(params, this.envelope()), this.options.requestTimeoutMs);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ProtocolViolationError(method, 'the result is not an object');
    const result = raw as Record<string, unknown>;
    this.lastServerInfo = resultServerInfo(result) ?? this.lastServerInfo;
    return result;
  }

  /** 当 `error` 是一个指出了我们支持的版本的 -32022 时，用来重试的那个版本。 */
  private mutualVersionAfter(error: unknown): string | undefined {
    if (!(error instanceof McpRpcError)) return undefined;
    const data = readUnsupportedVersion(error);
    return data === undefined ? undefined : pickMutualVersion(this.options.versions, data.supported);
  }
}
