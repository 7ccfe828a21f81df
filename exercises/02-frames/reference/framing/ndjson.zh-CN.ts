// 按行分隔的 JSON（NDJSON）：每行一个紧凑的 JSON 值。MCP 规范的 stdio 传输和官方 SDK
// 实际使用的就是它。它不需要长度头部，因为 JSON.stringify 从不写出原始的换行符：
// 字符串里的换行会写成 `\n`。
//
// 读取器在解码任何东西之前先按字节 0x0A 切分。这在 UTF-8 里是安全的：多字节字符的每个字节
// 都不小于 0x80，所以一个字节块可以在一个字符中间结束。

import { NOTHING_FOUND, readJsonBody, toJsonText } from './json-body.ts';
import { PendingBytes } from './pending-bytes.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { FrameReader as FrameReaderContract, Framing, ReadItem, ReaderOptions } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const utf8 = new TextEncoder();

/** 把一条消息写成一行：紧凑的 JSON，然后一个换行符。 */
export function encodeLine(message: unknown): Uint8Array {
  return utf8.encode(`${toJsonText(message)}\n`);
}

export const ndjsonFraming: Framing = {
  name: 'ndjson',
  encode: encodeLine,
  createReader(options?: ReaderOptions): FrameReaderContract {
    return new LineReader(options);
  },
};

/** 增量式的 NDJSON 读取器：推入任意大小的字节块，每行得到一项。 */
export class LineReader implements FrameReaderContract {
  /** 目前为止的这一行：上一个换行符之后的全部内容。 */
  private readonly line = new PendingBytes();
  /** 报告过一次 too-large 之后为 true，直到那一行结束。 */
  private discarding = false;
  /** 当前字节块第一个字节、当前行第一个字节在流中的偏移量。 */
  private chunkOffset = 0;
  private lineOffset = 0;

  /** 这次 push 读完的项；什么也没读完时返回 NOTHING_FOUND。 */
  private found: ReadItem[] = [];

  /** 接受的最长一行，单位字节，不算行尾。 */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  get bufferedBytes(): number {
    return this.line.length;
  }

  push(chunk: Uint8Array): ReadItem[] {
    const items = this.found;
    let at = 0;
    // 只搜索新的字节块：之前字节块里保存的字节已知不含换行符。
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, at)) {
      this.endLine(chunk, at, lf, items);
      at = lf + 1;
      this.lineOffset = this.chunkOffset + at;
    }
    if (at < chunk.length) this.hold(chunk, at, items);
    this.chunkOffset += chunk.length;
    if (items.length === 0) return NOTHING_FOUND;
    this.found = [];
    return items;
  }

  /** 这一行的最后一段 `chunk[start, lf)` 已经到达。 */
  private endLine(chunk: Uint8Array, start: number, lf: number, items: ReadItem[]): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const beforeNewline = this.line.length + (lf - start);
    const length = beforeNewline + 1;
    // max + 1 给 CRLF 行尾的 CR 留出位置；更长的行在任何复制之前就被拒绝。
    if (beforeNewline > this.maxMessageBytes + 1) {
      this.line.clear();
      items.push(this.tooLarge(length, `line of ${length} bytes is over the ${this.maxMessageBytes}-byte limit`));
      return;
    }
    let body = this.line.takeWith(chunk.subarray(start, lf));
    if (body.length > 0 && body[body.length - 1] === CR) body = body.subarray(0, body.length - 1);
    if (body.length > this.maxMessageBytes) {
      items.push(this.tooLarge(length, `line of ${length} bytes is over the ${this.maxMessageBytes}-byte limit`));
    } else if (!isBlank(body)) {
      items.push(readJsonBody(body, this.lineOffset, length));
    }
    // 空行不携带消息，所以直接跳过，不报告。
  }

  /** 保存 `chunk[at..]`：一行的开头，它的换行符还没到。 */
  private hold(chunk: Uint8Array, at: number, items: ReadItem[]): void {
    if (this.discarding) return;
    const held = this.line.length + (chunk.length - at);
    if (held > this.maxMessageBytes + 1) {
      // 一旦确定就报告一次（长度是到目前为止看到的），然后丢弃字节直到换行符，
      // 不保存它们。
      this.line.clear();
      this.discarding = true;
      items.push(this.tooLarge(held, `no newline within ${this.maxMessageBytes} bytes; dropping the rest of the line`));
      return;
    }
    this.line.add(at === 0 ? chunk : chunk.subarray(at));
  }

  private tooLarge(length: number, detail: string): ReadItem {
    return { type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length };
  }
}

/** 空行或只有 JSON 空白。遇到真正一行的第一个字节就返回，所以对正常行几乎没有开销。 */
function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}
