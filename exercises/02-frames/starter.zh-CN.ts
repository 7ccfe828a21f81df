// 练习 2：帧。stdin 和 stdout 是没有消息边界的字节流；分帧把边界找回来。两种 stdio 分帧都由你来写：
//   第 1 部分：encodeFrame + FrameReader，本章的 Content-Length 分帧（借自 LSP）；
//   第 2 部分：encodeLine + LineReader，按行分隔的 JSON（NDJSON），这才是 MCP 的 stdio 传输真正用的。
//
// 两个读取器实现同一个接口，来自 '@protocol/framing/types'：
//
//   interface FrameReader {
//     push(chunk: Uint8Array): ReadItem[];   // 收下下一个字节块，返回它凑齐的条目；永不抛异常
//     readonly bufferedBytes: number;        // 暂存着、等待帧的其余部分的字节数
//   }
//
//   type ReadItem =
//     | { type: 'message'; value: unknown; offset: number; length: number }   // value：解析好的 JSON
//     | { type: 'error'; kind: 'bad-header' | 'bad-json' | 'too-large'; detail: string; offset: number; length: number };
//
// `offset` 是这一帧第一个字节在整条字节流里的位置（从推入的第一个字节算起），`length` 是这一帧的字节数，
// 包括头部或换行符。字节查看器靠它们指出对应的字节；记得累计你已经消费掉的字节数。
// `detail` 是写给人看的一句短话（"no Content-Length header"）。
//
// 一个字节块可能只装着半帧，也可能装着好几帧，还可能停在某个字符的中间。在整个正文到齐之前，
// 保存的是字节，不是字符串。

import { DEFAULT_MAX_MESSAGE_BYTES, type FrameReader as FrameReaderContract, type ReadItem, type ReaderOptions } from '@protocol/framing/types';

const utf8 = new TextEncoder();
// fatal：不是合法 UTF-8 的正文会抛异常，而不是被悄悄换成 U+FFFD。正文的字节全部到齐后再解码。
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// ---------------------------------------------------------------------------------------------
// 第 1 部分：Content-Length 分帧
//
//   Content-Length: 40\r\n
//   \r\n
//   {"jsonrpc":"2.0","id":0,"method":"ping"}
// ---------------------------------------------------------------------------------------------

/** 整个帧的字节：头部、一个空行，然后是紧凑的 JSON 正文。 */
export function encodeFrame(message: unknown): Uint8Array {
  throw new Error('TODO: encodeFrame — the length counts the UTF-8 bytes of the body, not its characters');
}

export class FrameReader implements FrameReaderContract {
  /** 好习惯，规格测试不检查：正文比这更长时拒绝（kind 为 'too-large'）。 */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /**
   * 保存还没凑成整帧的字节。然后循环：
   * - 找头部块的结尾（\r\n\r\n）；还没到：等更多字节；
   * - 从头部各行读出 Content-Length；没有可用的长度：产出一个 'bad-header' 错误条目，丢掉这个头部块，继续；
   * - 正文字节还没到齐：等待（全部保留）；
   * - 解码正文并 JSON.parse：产出 'message' 条目，或者 'bad-json' 错误条目；
   * - 丢掉这一帧的字节，再来一轮：这个字节块里可能还有别的帧。
   */
  push(chunk: Uint8Array): ReadItem[] {
    throw new Error('TODO: FrameReader.push');
  }

  get bufferedBytes(): number {
    throw new Error('TODO: FrameReader.bufferedBytes — how many bytes you are holding');
  }
}

// ---------------------------------------------------------------------------------------------
// 第 2 部分：按行分隔的 JSON（NDJSON）
//
//   {"jsonrpc":"2.0","id":0,"method":"ping"}\n
// ---------------------------------------------------------------------------------------------

/** 一段紧凑的 JSON 文本，后面跟 '\n'。 */
export function encodeLine(message: unknown): Uint8Array {
  throw new Error('TODO: encodeLine');
}

export class LineReader implements FrameReaderContract {
  /** 好习惯，规格测试不检查：一行比这更长时拒绝（kind 为 'too-large'）。 */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /**
   * 按字节 0x0A（'\n'）切分；没结束的最后一行留给下一个字节块。对每个完整的行：去掉行尾的一个 '\r'，
   * 空行直接跳过、什么也不报告，否则解码并 JSON.parse：产出 'message' 条目，或者 'bad-json' 错误条目。
   */
  push(chunk: Uint8Array): ReadItem[] {
    throw new Error('TODO: LineReader.push');
  }

  get bufferedBytes(): number {
    throw new Error('TODO: LineReader.bufferedBytes — how many bytes you are holding');
  }
}

// ---------------------------------------------------------------------------------------------
// 可以直接用的几个字节小工具
// ---------------------------------------------------------------------------------------------

/** 把 `a` 和 `b` 接成一个新数组。 */
function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** `needle` 在 `haystack` 里从 `from` 起第一次出现的位置，没有就返回 -1。 */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let at = from; at + needle.length <= haystack.length; at++) {
    for (let i = 0; i < needle.length; i++) {
      if (haystack[at + i] !== needle[i]) continue outer;
    }
    return at;
  }
  return -1;
}
