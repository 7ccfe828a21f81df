// Server-Sent Events：第三种分帧方式，Streamable HTTP 用它来承载服务器发出的一串消息。
// 和两种 stdio 分帧方式不同，它分出来的是*事件*（文本字段），而不是 JSON 值；一条 JSON-RPC
// 消息放在事件的 `data` 里。读取器严格遵循 WHATWG 的“事件流解释”规则，因为每个浏览器的
// EventSource 和每个 SDK 都遵循它：
//
//   * 行以 CRLF、LF 或 CR 结尾——而一个 CRLF 可能被拆在两个字节块里；
//   * 以 ":" 开头的行是注释；"name: value" 去掉冒号后面的一个（ONE）空格；
//     没有冒号的行是一个值为空的字段；
//   * `data` 行追加到数据缓冲区，行与行之间加一个 LF；`event` 指定类型；
//     `id` 设置最后事件 ID（除非它含有 U+0000），并在事件之间保留；`retry`
//     （只允许 ASCII 数字）设置重连延迟；其他字段一律忽略；
//   * 空行触发分派：自上次分派以来没有 data 行就没有事件，但最后事件 ID 仍会更新
//     （只有 id 的块就是这样推进续传游标的）；
//   * 流最开头的一个 UTF-8 BOM 被丢掉；非法的 UTF-8 变成 U+FFFD；
//   * 流结束时没有以空行结尾的事件永远不会被分派。
//
// 和其他读取器一样，它先按字节切分再解码：CR 和 LF 是 ASCII，永远不会出现在多字节字符内部，
// 所以一个字节块可以在任何地方结束。

import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { ReaderOptions } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
/** UTF-8 的 BOM（U+FEFF）。 */
const BOM_0 = 0xef;
const BOM_1 = 0xbb;
const BOM_2 = 0xbf;

/** 行缓冲区的初始大小（取 2 的幂，这样它正好是整数个 8 字节的字对）。 */
const FIRST_BUFFER_BYTES = 4096;
/** 为一个长行而变得比这还大的缓冲区，在那一行结束后就放掉。 */
const KEPT_BUFFER_BYTES = 256 * 1024;

/** 一个已分派的事件，和 EventSource 的监听器看到的一样。 */
export interface SseEvent {
  /** `event` 字段；没有给出时为 "message"。 */
  type: string;
  /** 用 "\n" 连接起来的各个 `data` 行。 */
  data: string;
  /** 分派时的最后事件 ID（这个事件没有 `id` 时，沿用之前事件的）。 */
  id: string;
}

/**
 * 读取器发现的东西。偏移量从推入的第一个字节开始按字节计；一个事件的范围从它的第一行
 * 到空行的行尾第一个字节（所以它不取决于 CRLF 的 LF 是否在同一个字节块里到达）。
 */
export type SseReadItem =
  | { type: 'event'; event: SseEvent; offset: number; length: number }
  | { type: 'error'; kind: 'too-large'; detail: string; offset: number; length: number };

/** 编码时一个事件可以携带的字段。 */
export interface SseEventInit {
  data?: string;
  /** 事件类型；省略表示 "message"。 */
  event?: string;
  id?: string;
  /** 重连延迟，单位毫秒。 */
  retry?: number;
  /** 一行注释（读取器忽略它；用来让空闲的连接保持活跃）。 */
  comment?: string;
}

const utf8Encoder = new TextEncoder();
const NOTHING_FOUND: SseReadItem[] = Object.freeze([]) as unknown as SseReadItem[];
/** decode() 的选项，只创建一次，而不是每次调用都新建。 */
const STREAM = { stream: true };

/** 一个事件块的文本，以它的空行结束。遇到 SSE 无法携带的字段时抛出 TypeError。 */
export function encodeSseText(init: SseEventInit): string {
  let text = '';
  if (init.comment !== undefined) {
    for (const line of init.comment.split(/\r\n|\r|\n/)) text += `: ${line}\n`;
  }
  if (init.event !== undefined) text += `event: ${singleLine('event', init.event)}\n`;
  if (init.id !== undefined) {
    if (init.id.includes('\0')) throw new TypeError('an SSE id cannot contain U+0000: readers ignore such an id');
    text += `id: ${singleLine('id', init.id)}\n`;
  }
  if (init.retry !== undefined) {
    if (!Number.isSafeInteger(init.retry) || init.retry < 0) throw new TypeError(`retry must be a non-negative integer, got ${init.retry}`);
    text += `retry: ${init.retry}\n`;
  }
  // 数据里的每个换行都变成单独一行 data；读取器再用 "\n" 把它们连接起来。
  if (init.data !== undefined) {
    for (const line of init.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  }
  return `${text}\n`;
}

/** 一个事件块，作为 UTF-8 字节。 */
export function encodeSseEvent(init: SseEventInit): Uint8Array {
  return utf8Encoder.encode(encodeSseText(init));
}

function singleLine(field: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new TypeError(`an SSE ${field} cannot contain a line break`);
  return value;
}

/**
 * 增量式的 SSE 读取器：推入任意大小的字节块，得到每个已分派的事件。
 *
 * 每个字节块都被复制进同一个缓冲区、接在未完成的那一行后面，并在那里查找 CR 和 LF，
 * 一次查八个字节（见 `findLineEnd`）。没有结束任何一行的字节块只是暂存起来。有行结束时，
 * 直到最后一个行尾的全部内容用一次 TextDecoder 调用解码，每一行的文本再从中切出来：字节里
 * 第 k 个行尾就是文本里第 k 个，因为 CR 和 LF 各自是一个字节、一个字符，解码器也从不把它们
 * 挪到其他字符后面。偏移量、大小和上限都按字节计；字段名也从字节里读取。
 *
 * 为什么不像官方 SDK 的解析器那样，每来一个字节块就解码它？字节块小时（一条 1 KiB 的消息
 * 分成 16 个 64 字节的字节块），每个字节块一次解码调用，额外的开销和解码本身差不多；而且由
 * 16 段解码结果拼成的一行是拼接字符串，JSON.parse 读它比读扁平的字符串慢。这里一行只解码
 * 一次，不管它是分成多少个字节块到达的。
 */
export class SseReader {
  // `ignoreBOM`：U+FEFF 就是文本，即使它位于被解码内容的开头；只有流的第一个 BOM 会被丢掉，
  // 而且是手动丢掉的（见 `endLine`）。
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /**
   * 未完成的那一行在 `bytes[0, held)` 里，push() 期间新的字节块接在它后面。`words`
   * 把同一块内存看作 32 位的字，供查找行尾使用。
   */
  private bytes!: Uint8Array;
  private words!: Int32Array;
  private held = 0;
  /** push() 找到的行尾位置：其中前 `count` 项属于这次推入。 */
  private readonly lineEnds: number[] = [];
  /** 上一个字节块以 CR 结尾：下一个字节块开头的 LF 属于那个行尾。 */
  private skipLf = false;
  /** 报告过一行过长；丢掉它的字节，直到它结束。 */
  private discardingLine = false;
  /** 当前事件超过了上限；丢掉它的字段，直到空行。 */
  private discardingEvent = false;

  private chunkOffset = 0;
  private lineOffset = 0;
  /** 当前事件第一行的偏移量；还没见到它的任何一行时为 -1。 */
  private eventOffset = -1;

  private dataLines: string[] = [];
  private dataBytes = 0;
  private eventType = '';
  private idBuffer = '';
  private lastId = '';
  private retryMs: number | undefined;

  private readonly maxEventBytes: number;
  private found: SseReadItem[] = [];

  constructor(options?: ReaderOptions) {
    this.maxEventBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.allocate(FIRST_BUFFER_BYTES);
  }

  /** 目前为止的最后事件 ID：客户端重连时作为 `Last-Event-ID` 发送的值。 */
  get lastEventId(): string {
    return this.lastId;
  }

  /** 最新的 `retry` 值，单位毫秒；流还没发过时为 undefined。 */
  get retry(): number | undefined {
    return this.retryMs;
  }

  /** 为等待行尾而暂存的字节。 */
  get bufferedBytes(): number {
    return this.held;
  }

  /**
   * 接收下一个字节块；按流中的顺序返回它完成的每一项。从不抛异常。结果归调用方读取
   * （空结果是共享且冻结的：不要往里添加）。
   * 字节块会被复制，所以调用方之后可以复用它的内存。
   */
  push(chunk: Uint8Array): SseReadItem[] {
    let at = 0;
    if (this.skipLf && chunk.length > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        at = 1;
        this.lineOffset = this.chunkOffset + 1;
      }
    }
    // 把字节块接到未完成的那一行后面；只有新的字节需要扫描。
    const scanFrom = this.held;
    const end = scanFrom + chunk.length - at;
    if (end > this.bytes.length) this.grow(end);
    const bytes = this.bytes;
    bytes.set(at === 0 ? chunk : chunk.subarray(at), scanFrom);
    // 新的字节里各行在哪里结束。（这个数组一直保留、反复覆盖，从不清空：设置数组的 length
    // 是一次很慢的调用，每 64 个字节推入一次时就能测出差别。）
    const lineEnds = this.lineEnds;
    let count = 0;
    for (let lineEnd = this.findLineEnd(scanFrom, end); lineEnd !== -1; lineEnd = this.findLineEnd(lineEnd + 1, end)) lineEnds[count++] = lineEnd;
    let lineStart = 0;
    if (count > 0) {
      // 所有已结束的行一起解码一次。解码停在一个行尾上，那是一个 ASCII 字节，所以解码器里不会
      // 留下半个字符：被行尾截断的字符在它那一行里变成 U+FFFD，下一次解码从干净的状态开始。
      // 尽管如此仍然用流式模式，因为在 Node 上它是非 ASCII 文本的快速路径（实测一次性解码
      // 处理中日韩文本要慢约 40%）。
      const text = this.decoder.decode(bytes.subarray(0, lineEnds[count - 1]! + 1), STREAM);
      const bufferOffset = this.chunkOffset + at - scanFrom; // bytes[0] 在流中的偏移量
      let textStart = 0;
      for (let k = 0; k < count; k++) {
        const lineEnd = lineEnds[k]!;
        if (lineEnd < lineStart) continue; // CRLF 的 LF，已经越过
        const textEnd = text.indexOf(bytes[lineEnd] === LF ? '\n' : '\r', textStart);
        this.endLine(lineStart, lineEnd, text, textStart, textEnd);
        lineStart = lineEnd + 1;
        textStart = textEnd + 1;
        if (bytes[lineEnd] === CR) {
          if (lineStart === end) this.skipLf = true;
          else if (bytes[lineStart] === LF) {
            lineStart++;
            textStart++;
          }
        }
        this.lineOffset = bufferOffset + lineStart;
      }
    }
    this.hold(lineStart, end);
    this.chunkOffset += chunk.length;
    return this.takeFound();
  }

  /**
   * bytes[from, to) 里的第一个 CR 或 LF；没有时为 -1。一次测试八个字节（两个 32 位的字）：
   * 一个字含有小于 14 的字节（CR 是 13，LF 是 10），当且仅当
   * `(x - 0x0e0e0e0e) & ~x & 0x80808080` 不为零（经典的“含有小于 n 的字节”测试），
   * 只有这时才逐个查看它的字节。JSON 文本里没有原始的控制字符，所以这几乎只在行尾发生。
   * 速度大约是逐字节循环的三倍。
   */
  private findLineEnd(from: number, to: number): number {
    const bytes = this.bytes;
    const words = this.words;
    let i = from;
    // 先一次一个字节，直到字对的边界（缓冲区本身就从一个边界开始）……
    for (; i < to && (i & 7) !== 0; i++) {
      if (bytes[i] === LF || bytes[i] === CR) return i;
    }
    // ……然后一次八个……
    for (; i + 8 <= to; i += 8) {
      const x = words[i >> 2]!;
      const y = words[(i >> 2) + 1]!;
      if ((((x - 0x0e0e0e0e) & ~x) | ((y - 0x0e0e0e0e) & ~y)) & 0x80808080) {
        for (let j = i; j < i + 8; j++) {
          if (bytes[j] === LF || bytes[j] === CR) return j;
        }
      }
    }
    // ……最后剩下的几个再一次一个。
    for (; i < to; i++) {
      if (bytes[i] === LF || bytes[i] === CR) return i;
    }
    return -1;
  }

  /** 腾出 `size` 个字节的空间，保留未完成的那一行。每次翻倍，复制的总量就保持线性。 */
  private grow(size: number): void {
    let capacity = this.bytes.length * 2;
    while (capacity < size) capacity *= 2;
    const line = this.bytes.subarray(0, this.held);
    this.allocate(capacity);
    this.bytes.set(line);
  }

  /** 一个新的空缓冲区，大小为 `capacity` 个字节（4 的倍数），连同它的字视图。 */
  private allocate(capacity: number): void {
    const buffer = new ArrayBuffer(capacity);
    this.bytes = new Uint8Array(buffer);
    this.words = new Int32Array(buffer);
  }

  /** 这次推入发现的东西，交出去；读取器只在需要时才新开一个列表。 */
  private takeFound(): SseReadItem[] {
    // 一个长事件的大多数字节块什么都完成不了：它们共用一个冻结的空结果，而不是每次都分配
    // 一个数组（字节块小时能测出差别）。
    if (this.found.length === 0) return NOTHING_FOUND;
    const found = this.found;
    this.found = [];
    return found;
  }

  /** bytes[start, end) 这一行已经结束（bytes[end] 是它的 CR 或 LF）；它的文本是 text[textStart, textEnd)。 */
  private endLine(start: number, end: number, text: string, textStart: number, textEnd: number): void {
    const length = end - start;
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    if (length > this.maxEventBytes) {
      this.tooLarge(length, `line of ${length} bytes is over the ${this.maxEventBytes}-byte limit`);
      return;
    }
    const bytes = this.bytes;
    // 流的第一个 BOM（3 个字节、1 个字符）不属于第一行；只含这个 BOM 的一行是空行。
    let name = start;
    let textName = textStart;
    if (this.lineOffset === 0 && length >= 3 && bytes[start] === BOM_0 && bytes[start + 1] === BOM_1 && bytes[start + 2] === BOM_2) {
      name += 3;
      textName += 1;
    }
    if (name === end) return this.dispatch();
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    if (bytes[name] === COLON || this.discardingEvent) return;
    // 第一个冒号结束名字；没有冒号时，整行都是名字，值为空。
    let colon = name;
    while (colon < end && bytes[colon] !== COLON) colon++;
    const valueStart = colon === end ? end : bytes[colon + 1] === SPACE ? colon + 2 : colon + 1;
    // 值的大小是这一行的大小减去名字和分隔符，所以从流的第一行丢掉的 BOM 也算在里面
    // （和以前从解码后的文本里切行时一样）。
    const valueBytes = colon === end ? 0 : length - (valueStart - name);
    // 我们认识的名字以及它后面的冒号和空格都是 ASCII，一个字节一个字符：值的文本在名字之后
    // 隔了多少个字符开始，值的字节就在名字之后隔了多少个字节开始。
    const textValue = textName + (valueStart - name);
    if (this.isName(name, colon, 'data')) {
      this.dataBytes += valueBytes + 1;
      if (this.dataBytes > this.maxEventBytes) {
        this.tooLarge(valueBytes, `event data over the ${this.maxEventBytes}-byte limit; dropping the event`);
        return;
      }
      this.dataLines.push(text.slice(textValue, textEnd));
    } else if (this.isName(name, colon, 'id')) {
      const id = text.slice(textValue, textEnd);
      if (!id.includes('\0')) this.idBuffer = id;
    } else if (this.isName(name, colon, 'event')) {
      this.eventType = text.slice(textValue, textEnd);
    } else if (this.isName(name, colon, 'retry')) {
      const retry = text.slice(textValue, textEnd);
      if (/^[0-9]+$/.test(retry)) this.retryMs = Number(retry);
    }
    // 其他字段一律忽略。
  }

  /** bytes[start, end) 拼出的是不是 `name`（一个 ASCII 字段名）。 */
  private isName(start: number, end: number, name: string): boolean {
    if (end - start !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (this.bytes[start + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  /** 一个空行：如果目前构建的事件有数据就交出去，然后开始一个新事件。 */
  private dispatch(): void {
    this.lastId = this.idBuffer;
    const offset = this.eventOffset;
    const hasData = this.dataLines.length > 0 && !this.discardingEvent;
    if (hasData) {
      const data = this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join('\n');
      const event: SseEvent = { type: this.eventType === '' ? 'message' : this.eventType, data, id: this.lastId };
      this.found.push({ type: 'event', event, offset, length: this.lineOffset + 1 - offset });
    }
    this.dataLines = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.eventOffset = -1;
    this.discardingEvent = false;
  }

  /** 把 bytes[start, end) 保存在缓冲区开头：一行的开头，它的行尾还没到（这一段可能为空）。 */
  private hold(start: number, end: number): void {
    if (start < end && !this.discardingLine && end - start > this.maxEventBytes) {
      // 一旦确定就报告一次，然后丢掉这一行的剩余部分，不保存。
      this.discardingLine = true;
      this.tooLarge(end - start, `no line end within ${this.maxEventBytes} bytes; dropping the rest of the line`);
    }
    if (this.discardingLine) start = end;
    const held = end - start;
    if (this.bytes.length > KEPT_BUFFER_BYTES && held <= FIRST_BUFFER_BYTES) {
      // 这个缓冲区为之变大的那个长行已经结束：换回一个小缓冲区。
      const rest = this.bytes.subarray(start, end);
      this.allocate(FIRST_BUFFER_BYTES);
      this.bytes.set(rest);
    } else if (start > 0) {
      this.bytes.copyWithin(0, start, end);
    }
    this.held = held;
  }

  /** 在当前行报告，并丢掉它所属的事件。 */
  private tooLarge(length: number, detail: string): void {
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    this.discardingEvent = true;
    this.dataLines = [];
    this.found.push({ type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length });
  }
}
