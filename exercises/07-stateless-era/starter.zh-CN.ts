// 练习 7：无状态时代。你写双时代客户端的新时代那一半；DualEraClient（已写好）调用 discover()，结论是 'legacy'
// 时把管道交给练习 3的客户端，否则每个请求都走 request()。现成的：RpcChannel（request(method, params, timeoutMs)
// 以结果 resolve，或以 McpRpcError / RequestTimeoutError / ClientClosedError reject）、'@protocol/era/meta'
// 里的词汇，以及 readDiscoverResult。每一块在你写好之前都会抛错。

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

// 1. 能力与输入处理函数

export type InputHandler = (params: Record<string, unknown>) => unknown;
/** 服务器可能索要的每类输入，各一个处理函数。 */
export type InputHandlers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', InputHandler>>;

/** 恰好是有处理函数的那几类输入：'elicitation/create' → { elicitation: {} }，sampling，roots。 */
export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  throw new Error('TODO: capabilitiesFor — one capability per input handler');
}

/** MRTR 重试时在原参数上追加的字段。 */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** 以 result.inputRequests 的键给出 inputResponses（没有处理函数：InputRequiredError）；requestState 是字符串时原样复制。 */
export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  throw new Error('TODO: answerInputRequests — answer each input request, keep requestState');
}

// 2. server/discover 的回答意味着什么

/** 'modern'（带 version 和 discover）、'retry'（version）、'legacy' 或 'fail'（reason）：见课文里的表。 */
export function classifyProbe(outcome: ProbeOutcome, context: ProbeContext): ProbeVerdict {
  throw new Error('TODO: classifyProbe — modern, retry, legacy or fail');
}

// 3. 会话：discover()、信封、-32022、resultType 与 MRTR

export interface ModernSessionOptions {
  /** 起始版本。 */
  version: string;
  /** 客户端支持的所有新时代版本，偏好的在前。 */
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

  /** 只带信封探测；结论 'retry' 时再探测一次；'modern' 时换版本；每次都调用 onProbe。 */
  async discover(options: DiscoverOptions): Promise<DiscoverVerdict> {
    throw new Error('TODO: discover — the server/discover probe');
  }

  /** 每个请求都带信封，-32022 后重试一次，resultType，最多 maxInputRounds 轮 MRTR。 */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    throw new Error('TODO: request — envelope, -32022, resultType, MRTR');
  }
}
