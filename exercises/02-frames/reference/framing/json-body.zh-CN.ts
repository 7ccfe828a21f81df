// 把一个完整的消息体变成一个 ReadItem。两种分帧方式都在这里收尾，
// 所以两者报告损坏消息体的方式相同。

import type { ReadItem } from './types.ts';

// `fatal`：在字符中间被截断的消息体，或任何其他非法的 UTF-8，都必须拒绝，
// 而不是悄悄用 U+FFFD 补上，再当作发送方写的内容交出去。
// 不带 { stream: true } 的 decode() 在两次调用之间不保留状态，所以一个解码器可以服务所有读取器。
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 把 `body` 当作 UTF-8 JSON 解码：得到一条消息，或一个 bad-json 错误。从不抛异常。 */
export function readJsonBody(body: Uint8Array, offset: number, length: number): ReadItem {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { type: 'error', kind: 'bad-json', detail: 'body is not valid UTF-8', offset, length };
  }
  try {
    return { type: 'message', value: JSON.parse(text), offset, length };
  } catch (error) {
    return { type: 'error', kind: 'bad-json', detail: `body is not JSON: ${(error as Error).message}`, offset, length };
  }
}

/** `message` 的紧凑 JSON 文本；遇到 JSON 无法表示的值时抛出 TypeError。 */
export function toJsonText(message: unknown): string {
  const text: string | undefined = JSON.stringify(message);
  if (text === undefined) throw new TypeError(`a ${typeof message} cannot be encoded as JSON`);
  return text;
}

/**
 * 一次 push 什么也没读完时返回的东西：一个共享的、冻结的空列表。长帧以小块到达时，大多数 push
 * 什么也读不完，每次新建一个数组的开销是测得出来的。调用方只读取 push 的返回值。
 */
export const NOTHING_FOUND: ReadItem[] = Object.freeze([]) as unknown as ReadItem[];
