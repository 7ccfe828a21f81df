// 练习 7：无状态时代。第 3 关的客户端说的是握手；这里你写新时代的那一半，让它也能说 2026-07-28 修订版。
// 外面那层双时代客户端（DualEraClient）已经写好：它让你的 ModernSession 用 discover() 判断服务器的时代，
// 结论是 'legacy' 时把管道交给第 3 关的客户端，否则每个请求都走你的 ModernSession.request()。
// 你要写四块；没写之前，每一块都会抛错。
//
// 现成的：JSON-RPC 通道（RpcChannel：request(method, params, timeoutMs) 以结果 resolve，以 McpRpcError /
// RequestTimeoutError / ClientClosedError reject）、'@protocol/era/meta' 里该修订版的词汇，以及 readDiscoverResult。

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
// 1. 能力与输入处理函数
// ---------------------------------------------------------------------------------------------

export type InputHandler = (params: Record<string, unknown>) => unknown;
/** 服务器可能索要的每类输入，各一个处理函数。 */
export type InputHandlers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', InputHandler>>;

/**
 * 信封里的 clientCapabilities：恰好是有处理函数的那几类输入。
 *   'elicitation/create' → elicitation，'sampling/createMessage' → sampling，'roots/list' → roots，
 * 每个都是空对象：{ elicitation: {} }。没有处理函数 → {}。
 */
export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  throw new Error('TODO: capabilitiesFor — one capability per input handler');
}

/** MRTR 重试时在原参数上追加的字段。 */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * `method` 收到了一个 InputRequiredResult。对 `result.inputRequests` 的每一项（键 → { method, params }），
 * 用它的 params 调用对应 method 的处理函数，把回答放在 `inputResponses` 的同一个键下。
 * 有一项没有处理函数 → 抛出 InputRequiredError。`result.requestState` 是字符串时原样复制；否则不带。
 */
export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  throw new Error('TODO: answerInputRequests — answer each input request, keep requestState');
}

// ---------------------------------------------------------------------------------------------
// 2. server/discover 的回答意味着什么
// ---------------------------------------------------------------------------------------------

/**
 * 返回其中之一：{ kind: 'modern', version, discover }、{ kind: 'retry', version }、{ kind: 'legacy', reason }、
 * { kind: 'fail', reason }。
 * - readDiscoverResult 接受、且列出了 `context.ours` 中某个版本的结果：modern，取它列出的第一个我方版本；
 *   它不接受的结果，或一个我方版本都没有：legacy；
 * - 带 data.supported 的 -32022 错误：里面有我方版本 → 用它 retry；没有，但有新时代版本
 *   （isModernProtocolVersion）→ fail；只有握手时代版本 → legacy；没有 supported 列表的 -32022 不是新时代的错误 → legacy；
 * - -32020 或 -32021 错误：新时代服务器拒绝了请求 → fail；
 * - 其他任何错误（-32601 …）→ legacy；
 * - 超时：stdio 上是 legacy（沉默的本地进程说的是握手）；http 上是 fail；
 * - 连接关闭：fail。
 */
export function classifyProbe(outcome: ProbeOutcome, context: ProbeContext): ProbeVerdict {
  throw new Error('TODO: classifyProbe — modern, retry, legacy or fail');
}

// ---------------------------------------------------------------------------------------------
// 3. 会话：discover()、信封、-32022、resultType 与 MRTR
// ---------------------------------------------------------------------------------------------

export interface ModernSessionOptions {
  /** 起始版本。 */
  version: string;
  /** 客户端会说的所有新时代版本，偏好的在前。 */
  versions: readonly string[];
  clientInfo: Implementation;
  inputHandlers: InputHandlers;
  requestTimeoutMs: number;
  /** 每个请求放弃之前最多几轮输入。默认 8。 */
  maxInputRounds?: number;
  /** 某个请求收到 -32022、会话因此换了版本时调用。 */
  onVersionChange?: (version: string) => void;
}

export interface DiscoverOptions {
  transport: ProbeTransportKind;
  timeoutMs: number;
  /** 要提供的版本，偏好的在前；不给时用 `options.versions`。 */
  versions?: readonly string[];
  /** 每发出一次探测之后调用。 */
  onProbe?: (version: string, outcome: ProbeOutcome, verdict: ProbeVerdict) => void;
}

export type DiscoverVerdict = Exclude<ProbeVerdict, { kind: 'retry' }>;

export class ModernSession {
  constructor(
    private readonly channel: RpcChannel,
    private readonly options: ModernSessionOptions,
  ) {}

  /** 会话当前说的版本。 */
  get version(): string {
    throw new Error('TODO: version');
  }

  /** 最近一个结果在 _meta 里带的 serverInfo（resultServerInfo），如果有的话。 */
  get serverInfo(): Implementation | undefined {
    return undefined;
  }

  /** { protocolVersion: 当前版本, clientCapabilities: capabilitiesFor(handlers), clientInfo }。 */
  envelope(): RequestEnvelope {
    throw new Error('TODO: envelope');
  }

  /**
   * 发出 server/discover（params 只有信封，用提供的第一个版本，超时用 options 的 timeoutMs），并判断回来的是什么：
   * 结果、McpRpcError（code、rpcMessage、data）、RequestTimeoutError（timeout）或 ClientClosedError（closed，带上 reason）。
   * 结论是 'retry'：用那个版本再探测一次；第二次 'retry' 就是 fail。
   * 结论是 'modern'：从此说那个版本。每次探测之后调用 onProbe。
   */
  async discover(options: DiscoverOptions): Promise<DiscoverVerdict> {
    throw new Error('TODO: discover — the server/discover probe');
  }

  /**
   * 在 params._meta 里带上信封发出 `method`（保留调用方的参数和 _meta 键），返回完整的结果：
   * - -32022 里列出了 `versions` 中的某个版本：换成它（onVersionChange），再发一次；
   * - 不是对象：ProtocolViolationError；resultType 缺失或为 'complete'：这就是答案；
   * - tools/call、resources/read、prompts/get 上的 'input_required'：answerInputRequests，然后用原参数加上重试字段
   *   再发同一个请求，总共最多 maxInputRounds 个结果（之后 InputRequiredError）；出现在别处，或其他任何
   *   resultType：ProtocolViolationError。
   */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    throw new Error('TODO: request — envelope, -32022, resultType, MRTR');
  }
}
