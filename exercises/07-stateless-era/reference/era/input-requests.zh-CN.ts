// 多轮往返请求（Multi Round-Trip Requests，basic/patterns/mrtr.mdx）的客户端一侧。在 2026-07-28
// 这一版里，服务器不再以自己的请求发送 elicitation/create、sampling/createMessage 或 roots/list：
// 它用一个 InputRequiredResult 来回答 tools/call、resources/read 或 prompts/get，其中的
// `inputRequests` 映射说明它需要什么；客户端带着 `inputResponses`（相同的键）和它拿到的
// 原样 `requestState` 重试同一个请求。
//
// 调用方为每种输入提供一个处理函数，就像 SDK 客户端注册它的 elicitation 或 sampling 处理函数
// 一样；同样的处理函数也回答旧时代服务器的请求。

import { InputRequiredError } from './era-errors.ts';

export type InputHandler = (params: Record<string, unknown>) => unknown;

/** 服务器可能要求的三种输入，各自带着它需要的客户端能力。 */
export const INPUT_METHODS = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;
export type InputMethod = keyof typeof INPUT_METHODS;
export type InputHandlers = Partial<Record<InputMethod, InputHandler>>;

/** 要声明的能力：恰好是有处理函数的那几种输入（服务器不得（MUST NOT）要求其他输入）。 */
export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  const capabilities: Record<string, Record<string, never>> = {};
  for (const method of Object.keys(handlers) as InputMethod[]) {
    if (handlers[method] !== undefined) capabilities[INPUT_METHODS[method]] = {};
  }
  return capabilities;
}

/** 重试时加到原始参数上的字段：回答，以及原样送回的服务器状态。 */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * 回答 InputRequiredResult 中内嵌的每个请求，并构造重试要加的字段。
 * `requestState` 存在时逐字节复制，不存在时就省略（规范两种情况都写了）；客户端从不查看它的内容。
 */
export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  const fields: RetryFields = {};
  const requests = result.inputRequests;
  if (requests !== undefined) {
    if (!isObject(requests)) throw new InputRequiredError(method, '"inputRequests" is not an object', result);
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const kind = isObject(request) ? request.method : undefined;
      const handler = typeof kind === 'string' && kind in INPUT_METHODS ? handlers[kind as InputMethod] : undefined;
      if (handler === undefined) throw new InputRequiredError(method, `no handler for input request "${key}" (${String(kind)})`, result);
      const params = isObject(request) && isObject(request.params) ? request.params : {};
      responses[key] = await handler(params);
    }
    fields.inputResponses = responses;
  }
  if (typeof result.requestState === 'string') fields.requestState = result.requestState;
  return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
