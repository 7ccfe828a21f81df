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
 * 每个字节块由一个流式解码器解码一次（它也只丢掉流的第一个 BOM，并接住被拆在两个字节块里的
 * 字符），再从这段文本里切出行。行尾也在字节里查找，只是为了知道每一行的字节偏移量：
 * CR 和 LF 各自是一个字节、一个字符，解码器从不把它们挪到其他字符后面，所以一个字节块的
 * 字节里第 k 个行尾就是它文本里的第 k 个。按整块而不是逐行解码，正是它能和官方 SDK 的
 * 解析器一样快的原因。
 */
export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  /** 目前为止这一行的文本（当它开始于更早的字节块时），以及它的字节数。 */
  private lineText = '';
  private lineBytes = 0;
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
    return this.discardingLine ? 0 : this.lineBytes;
  }

  /**
   * 接收下一个字节块；按流中的顺序返回它完成的每一项。从不抛异常。结果归调用方读取
   * （空结果是共享且冻结的：不要往里添加）。
   */
  push(chunk: Uint8Array): SseReadItem[] {
    // 一个长事件的大多数字节块什么都完成不了：它们共用一个冻结的空结果，而不是每次都分配
    // 一个数组（字节块小时能测出差别）。
    const items = this.found;
    const text = this.decoder.decode(chunk, { stream: true });
    let at = 0; // 以字节计
    let textAt = 0; // 以文本计
    if (this.skipLf && chunk.length > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        at = 1;
        textAt = 1;
        this.lineOffset = this.chunkOffset + 1;
      }
    }
    // 找出每个行尾：LF 最常见；只有在前面可能还有 CR 时才查找 CR。
    // 文本告诉我们这里到底有没有行尾（字符串搜索比字节搜索快）：长行中间的字节块直接暂存，
    // 不扫描它的字节；没有 CR 的流每个字节块只为 LF 扫描一遍字节。
    const hasLf = text.indexOf('\n', textAt) !== -1;
    const hasCr = text.indexOf('\r', textAt) !== -1;
    if (!hasLf && !hasCr) {
      if (at < chunk.length) this.hold(text.slice(textAt), chunk.length - at, items);
      this.chunkOffset += chunk.length;
      return this.takeFound();
    }
    let nextLf = hasLf ? chunk.indexOf(LF, at) : -1;
    let nextCr = hasCr ? chunk.indexOf(CR, at) : -1;
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      const textEnd = text.indexOf(chunk[end] === LF ? '\n' : '\r', textAt);
      this.endLine(text.slice(textAt, textEnd), end - at, items);
      at = end + 1;
      textAt = textEnd + 1;
      if (chunk[end] === CR) {
        if (at === chunk.length) this.skipLf = true;
        else if (chunk[at] === LF) {
          at++;
          textAt++;
        }
      }
      this.lineOffset = this.chunkOffset + at;
      if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = chunk.indexOf(CR, at);
    }
    if (at < chunk.length) this.hold(text.slice(textAt), chunk.length - at, items);
    this.chunkOffset += chunk.length;
    return this.takeFound();
  }

  /** 这次推入发现的东西，交出去；读取器只在需要时才新开一个列表。 */
  private takeFound(): SseReadItem[] {
    if (this.found.length === 0) return NOTHING_FOUND;
    const found = this.found;
    this.found = [];
    return found;
  }

  /** 当前行以 `tail`（长 `tailBytes`）结束；暂存的内容都在它前面。 */
  private endLine(tail: string, tailBytes: number, items: SseReadItem[]): void {
    const length = this.lineBytes + tailBytes;
    const line = this.lineText === '' ? tail : this.lineText + tail;
    this.lineText = '';
    this.lineBytes = 0;
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    if (length > this.maxEventBytes) {
      this.tooLarge(items, length, `line of ${length} bytes is over the ${this.maxEventBytes}-byte limit`);
      return;
    }
    // 空行：没有文本。（只含流的第一个 BOM 的一行有字节但没有文本，也算空行。）
    if (line === '') return this.dispatch(items);
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    if (line.charCodeAt(0) === COLON || this.discardingEvent) return;
    const colon = line.indexOf(':');
    if (colon === -1) return this.field(line, '', 0, items);
    const valueStart = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    // 名字是我们用到的那些时，名字和分隔符都是 ASCII，所以值的字节就是剩下的部分。
    this.field(line.slice(0, colon), line.slice(valueStart), length - valueStart, items);
  }

  /** 按标准的规则处理当前事件的一个字段；未知的名字忽略。 */
  private field(name: string, value: string, valueBytes: number, items: SseReadItem[]): void {
    switch (name) {
      case 'data':
        this.dataBytes += valueBytes + 1;
        if (this.dataBytes > this.maxEventBytes) {
          this.tooLarge(items, valueBytes, `event data over the ${this.maxEventBytes}-byte limit; dropping the event`);
          return;
        }
        this.dataLines.push(value);
        return;
      case 'event':
        this.eventType = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.idBuffer = value;
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        return;
    }
  }

  /** 一个空行：如果目前构建的事件有数据就交出去，然后开始一个新事件。 */
  private dispatch(items: SseReadItem[]): void {
    this.lastId = this.idBuffer;
    const offset = this.eventOffset;
    const hasData = this.dataLines.length > 0 && !this.discardingEvent;
    if (hasData) {
      const data = this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join('\n');
      const event: SseEvent = { type: this.eventType === '' ? 'message' : this.eventType, data, id: this.lastId };
      items.push({ type: 'event', event, offset, length: this.lineOffset + 1 - offset });
    }
    this.dataLines = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.eventOffset = -1;
    this.discardingEvent = false;
  }

  /** 保存一行的开头，它的行尾还没到。 */
  private hold(text: string, bytes: number, items: SseReadItem[]): void {
    if (this.discardingLine) return;
    const held = this.lineBytes + bytes;
    if (held > this.maxEventBytes) {
      // 一旦确定就报告一次，然后丢掉这一行的剩余部分，不保存。
      this.lineText = '';
      this.lineBytes = 0;
      this.discardingLine = true;
      this.tooLarge(items, held, `no line end within ${this.maxEventBytes} bytes; dropping the rest of the line`);
      return;
    }
    this.lineText += text;
    this.lineBytes = held;
  }

  /** 在当前行报告，并丢掉它所属的事件。 */
  private tooLarge(items: SseReadItem[], length: number, detail: string): void {
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    this.discardingEvent = true;
    this.dataLines = [];
    items.push({ type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length });
  }
}
