// 本章的分帧方式，借自 Language Server Protocol（LSP）：一个头部块、一个空行，
// 然后是恰好 Content-Length 个字节的 JSON。
//
//   Content-Length: 17\r\n
//   \r\n
//   {"jsonrpc":"2.0"}
//
// 长度数的是 UTF-8 字节，不是字符："你好" 是 6 个字节。读取器按字节工作，等消息体全部到齐
// 才解码，所以一个字节块可以在任何地方结束，哪怕是在一个字符中间。

import { classifyHeaderLine, indexOfContentLength } from './header-line.ts';
import { NOTHING_FOUND, readJsonBody, toJsonText } from './json-body.ts';
import { PendingBytes } from './pending-bytes.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { FrameReader as FrameReaderContract, Framing, ReadItem, ReaderOptions } from './types.ts';

/** 头部块超过这么多字节还没结束就丢弃，这样内存占用有上限。 */
export const MAX_HEADER_BYTES = 8 * 1024;

const LF = 0x0a;
const utf8 = new TextEncoder();

/** 把一条消息写成一整帧：头部、一个空行，然后是紧凑的 JSON 消息体。 */
export function encodeFrame(message: unknown): Uint8Array {
  const body = utf8.encode(toJsonText(message));
  const header = utf8.encode(`Content-Length: ${body.length}\r\n\r\n`);
  const frame = new Uint8Array(header.length + body.length);
  frame.set(header);
  frame.set(body, header.length);
  return frame;
}

export const contentLengthFraming: Framing = {
  name: 'content-length',
  encode: encodeFrame,
  createReader(options?: ReaderOptions): FrameReaderContract {
    return new FrameReader(options);
  },
};

/**
 * `header`：正在收集头部行。`body`：正在收集一个长度已知的消息体。`discard`：
 * 让一个过大的消息体流过去。`skip-line`：丢掉一行过长头部的剩余部分。
 */
type Phase = 'header' | 'body' | 'discard' | 'skip-line';

/** 增量式的 Content-Length 读取器：推入任意大小的字节块，得到一条条消息。 */
export class FrameReader implements FrameReaderContract {
  private phase: Phase = 'header';

  // 目前为止的头部块。头部很短，所以它们被复制进一个只分配一次的小缓冲区；
  // 每一行在它的 LF 到达时判定一次，从不重新扫描。
  private readonly header = new Uint8Array(MAX_HEADER_BYTES);
  private headerLength = 0;
  /** 还在等 LF 的那一行在 `header` 里从哪里开始。 */
  private lineStart = 0;
  private declaredLength: number | null = null;
  private headerProblem: string | null = null;

  /** 还要收的消息体字节（`body`），或还要丢的字节（`discard`）。 */
  private remaining = 0;
  private readonly body = new PendingBytes();

  /** 当前字节块第一个字节在流中的偏移量。 */
  private chunkOffset = 0;
  /** 当前帧第一个头部字节在流中的偏移量，以及整帧的长度。 */
  private frameOffset = 0;
  private frameLength = 0;

  /** 这次 push 读完的项；什么也没读完时返回 NOTHING_FOUND。 */
  private found: ReadItem[] = [];

  /** 接受的最大消息体，单位字节。 */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** 到目前为止收到的未完成帧的字节数；正在跳过的消息体不会被保存，所以不计入。 */
  get bufferedBytes(): number {
    return this.phase === 'body' ? this.frameLength - this.remaining : this.headerLength;
  }

  push(chunk: Uint8Array): ReadItem[] {
    const items = this.found;
    let at = 0;
    while (at < chunk.length) {
      switch (this.phase) {
        case 'header':
          at = this.readHeader(chunk, at, items);
          break;
        case 'body':
          at = this.readBody(chunk, at, items);
          break;
        case 'discard':
          at = this.discard(chunk, at);
          break;
        case 'skip-line':
          at = this.skipLine(chunk, at);
          break;
      }
    }
    this.chunkOffset += chunk.length;
    if (items.length === 0) return NOTHING_FOUND;
    this.found = [];
    return items;
  }

  /** 复制头部字节，直到下一个 LF（含）或字节块结束；一行收齐就判定它。 */
  private readHeader(chunk: Uint8Array, at: number, items: ReadItem[]): number {
    if (this.headerLength === 0) this.frameOffset = this.chunkOffset + at;
    const lf = chunk.indexOf(LF, at);
    const end = lf === -1 ? chunk.length : lf + 1;

    if (this.headerLength + (end - at) > MAX_HEADER_BYTES) {
      const dropped = this.headerLength + (end - at);
      this.dropHeader(dropped, `no end of header within ${MAX_HEADER_BYTES} bytes`, items);
      // 在一行中间：这一行的剩余部分也丢掉（不再报告：刚刚已经报告过了），然后重新看。
      if (lf === -1) this.phase = 'skip-line';
      return end;
    }

    // 用普通循环：头部片段只有几十个字节，短到不值得用 subarray + set。
    for (let i = at; i < end; i++) this.header[this.headerLength++] = chunk[i]!;
    if (lf !== -1) this.onHeaderLine(items);
    return end;
  }

  private onHeaderLine(items: ReadItem[]): void {
    const line = classifyHeaderLine(this.header, this.lineStart, this.headerLength);
    switch (line.kind) {
      case 'content-length':
        this.noteDeclaredLength(line.value);
        this.lineStart = this.headerLength;
        return;
      case 'other-field':
        this.lineStart = this.headerLength;
        return;
      case 'blank':
        if (this.lineStart === 0) this.dropHeader(this.headerLength, 'blank line where a header was expected', items);
        else this.endHeaderBlock(items);
        return;
      case 'garbage':
        this.resync(items);
        return;
    }
  }

  private noteDeclaredLength(value: number | null): void {
    if (value === null) this.headerProblem = 'Content-Length is not a byte count';
    else if (this.declaredLength !== null && this.declaredLength !== value) this.headerProblem = 'conflicting Content-Length headers';
    else this.declaredLength = value;
  }

  /**
   * 重新同步规则。一行如果不是 `Name: value` + CRLF（一行日志、一个长度写错的消息体的尾巴），
   * 说明我们不在头部块里：丢掉手上保存的全部字节，直到并包括这一行，然后从下一个字节重新看。
   * 有一个例外：当这一行在第一个字节之后含有 `Content-Length:`，说明没有换行的垃圾数据直接
   * 撞进了下一帧的头部（`...}Content-Length: 42`），这时只丢掉它前面的字节，然后读那个头部。
   * 真正的头部以 CRLF 结束行；这条规则抓的正是以单独 LF 结尾的日志行。
   */
  private resync(items: ReadItem[]): void {
    const restart = indexOfContentLength(this.header, this.lineStart + 1, this.headerLength);
    if (restart === -1) {
      this.dropHeader(this.headerLength, 'not a header line', items);
      return;
    }
    const held = this.headerLength;
    this.dropHeader(restart, 'not a header line', items);
    this.header.copyWithin(0, restart, held);
    this.headerLength = held - restart;
    this.frameOffset += restart;
    this.onHeaderLine(items);
  }

  private endHeaderBlock(items: ReadItem[]): void {
    const length = this.declaredLength;
    if (this.headerProblem !== null || length === null) {
      this.dropHeader(this.headerLength, this.headerProblem ?? 'no Content-Length header', items);
      return;
    }
    this.frameLength = this.headerLength + length;
    this.resetHeader();
    this.remaining = length;
    if (length > this.maxMessageBytes) {
      // 仅凭头部就报告：消息体从不保存，只在它流过时计数。
      const detail = `Content-Length ${length} is over the ${this.maxMessageBytes}-byte limit; skipping the body`;
      items.push({ type: 'error', kind: 'too-large', detail, offset: this.frameOffset, length: this.frameLength });
      this.phase = 'discard';
    } else if (length === 0) {
      items.push(readJsonBody(new Uint8Array(0), this.frameOffset, this.frameLength));
    } else {
      this.phase = 'body';
    }
  }

  private readBody(chunk: Uint8Array, at: number, items: ReadItem[]): number {
    const available = chunk.length - at;
    if (available < this.remaining) {
      this.body.add(at === 0 ? chunk : chunk.subarray(at));
      this.remaining -= available;
      return chunk.length;
    }
    const end = at + this.remaining;
    // 整个消息体都在这个字节块里时零复制；否则把保存的片段复制一次。
    const body = this.body.takeWith(chunk.subarray(at, end));
    items.push(readJsonBody(body, this.frameOffset, this.frameLength));
    this.remaining = 0;
    this.phase = 'header';
    return end;
  }

  private discard(chunk: Uint8Array, at: number): number {
    const skipped = Math.min(this.remaining, chunk.length - at);
    this.remaining -= skipped;
    if (this.remaining === 0) this.phase = 'header';
    return at + skipped;
  }

  private skipLine(chunk: Uint8Array, at: number): number {
    const lf = chunk.indexOf(LF, at);
    if (lf === -1) return chunk.length;
    this.phase = 'header';
    return lf + 1;
  }

  /** 把保存的前 `length` 个头部字节报告为 bad-header，并忘掉目前为止的头部。 */
  private dropHeader(length: number, detail: string, items: ReadItem[]): void {
    items.push({ type: 'error', kind: 'bad-header', detail, offset: this.frameOffset, length });
    this.resetHeader();
  }

  private resetHeader(): void {
    this.headerLength = 0;
    this.lineStart = 0;
    this.declaredLength = null;
    this.headerProblem = null;
  }
}
