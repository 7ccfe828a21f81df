// HTTP/1.1 as bytes (RFC 9112), the reading half: an incremental reader for requests (the worker
// host's server side) and responses (the page's own client over a relayed TCP connection). Like
// the stdio readers it takes chunks cut anywhere — in a CRLF, in a chunk-size line, in a
// multi-byte character of the body — and what it reads never depends on where the cuts fall.
//
// It reports the message as spans of the byte stream, not only as values, because the byte
// inspector draws exactly those spans: the start line, each header line, the blank line, each
// chunk-size line, chunk data and the CRLF after it, the trailer section's end. Offsets count from
// the first byte ever pushed. The body arrives as `data` items (chunk data only, so a consumer of
// `data` sees the decoded body).
//
// The rules it keeps, the ones a server and a client of this project meet:
//   * every line ends in CRLF (a bare LF is refused: a parser that accepts what another rejects is
//     how request smuggling starts);
//   * a body is chunked when Transfer-Encoding ends in `chunked`, else Content-Length long, else —
//     for a response only — it runs until the connection closes; a message with both framings is
//     refused;
//   * responses 1xx, 204 and 304 have no body; after one message the next may follow (keep-alive).

const CR = 0x0d;
const LF = 0x0a;

/** Heads above this size are refused (node:http's default limit is 16 KiB; this is roomier). */
export const DEFAULT_MAX_HEAD_BYTES = 64 * 1024;

export interface HeaderField {
  /** As sent (case kept). */
  name: string;
  value: string;
}

export type Http1Head =
  | { kind: 'request'; method: string; target: string; version: string; fields: HeaderField[]; headers: Record<string, string> }
  | { kind: 'response'; status: number; reason: string; version: string; fields: HeaderField[]; headers: Record<string, string> };

/** How the body of the message just read is framed. */
export type BodyFraming = 'none' | 'content-length' | 'chunked' | 'until-close';

export type Http1Item =
  | { type: 'start-line'; offset: number; length: number; text: string }
  | { type: 'header'; offset: number; length: number; name: string; value: string }
  /** The blank line that ends the head; `head` is the whole head, read. */
  | { type: 'head-end'; offset: number; length: number; head: Http1Head; framing: BodyFraming; contentLength?: number }
  | { type: 'chunk-size'; offset: number; length: number; size: number }
  /** Body bytes: the body itself, or the data of one chunk (maybe in several pieces). */
  | { type: 'data'; offset: number; bytes: Uint8Array }
  /** The CRLF that follows a chunk's data. */
  | { type: 'chunk-end'; offset: number; length: number }
  | { type: 'trailer'; offset: number; length: number; name: string; value: string }
  /** The message is complete; `length` covers the chunked body's final CRLF (0 for other bodies). */
  | { type: 'end'; offset: number; length: number }
  /** The bytes break HTTP/1.1; the reader reads nothing more. */
  | { type: 'error'; offset: number; detail: string };

type State =
  | { at: 'start-line' }
  | { at: 'headers' }
  | { at: 'length'; remaining: number }
  | { at: 'chunk-size' }
  | { at: 'chunk-data'; remaining: number }
  | { at: 'chunk-end' }
  | { at: 'trailers' }
  | { at: 'until-close' }
  | { at: 'failed' };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EMPTY = new Uint8Array(0);

/** Bytes as ISO-8859-1 text, one character per byte, as HTTP heads are read (and as node:http does). */
function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096) text += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return text;
}

export class Http1Reader {
  private state: State = { at: 'start-line' };
  private pending: Uint8Array = EMPTY;
  /** Stream offset of pending[0]. */
  private base = 0;
  /** Bytes of pending already searched for a LF without finding one. */
  private scanned = 0;
  private headBytes = 0;
  private startLine: { text: string; method?: string; target?: string; status?: number; reason?: string; version: string } | null = null;
  private fields: HeaderField[] = [];
  private readonly maxHeadBytes: number;

  constructor(
    readonly kind: 'request' | 'response',
    options: { maxHeadBytes?: number } = {},
  ) {
    this.maxHeadBytes = options.maxHeadBytes ?? DEFAULT_MAX_HEAD_BYTES;
  }

  /** True between messages: nothing of a next message has been read. */
  get idle(): boolean {
    return this.state.at === 'start-line' && this.pending.length === 0;
  }

  get failed(): boolean {
    return this.state.at === 'failed';
  }

  /** Take the next chunk; return what it completed, in stream order. Never throws. */
  push(chunk: Uint8Array): Http1Item[] {
    const items: Http1Item[] = [];
    if (this.state.at === 'failed' || chunk.length === 0) return items;
    if (this.pending.length === 0) this.pending = chunk;
    else {
      const joined = new Uint8Array(this.pending.length + chunk.length);
      joined.set(this.pending);
      joined.set(chunk, this.pending.length);
      this.pending = joined;
    }
    while (this.pending.length > 0 && this.step(items));
    return items;
  }

  /** The connection closed: a body that runs until the close ends here; anything else unfinished is an error. */
  finish(): Http1Item[] {
    const offset = this.base;
    switch (this.state.at) {
      case 'failed':
        return [];
      case 'until-close':
        this.state = { at: 'failed' }; // nothing can follow a closed connection
        return [{ type: 'end', offset, length: 0 }];
      case 'start-line':
        if (this.pending.length === 0) return [];
    }
    const detail = `the connection closed in the middle of a message (${this.state.at})`;
    this.state = { at: 'failed' };
    return [{ type: 'error', offset: offset + this.pending.length, detail }];
  }

  /** One step of the state machine; false when it needs more bytes (or failed). */
  private step(items: Http1Item[]): boolean {
    const state = this.state;
    switch (state.at) {
      case 'start-line':
      case 'headers':
      case 'chunk-size':
      case 'trailers':
        return this.line(items);
      case 'length':
      case 'chunk-data': {
        const take = Math.min(state.remaining, this.pending.length);
        items.push({ type: 'data', offset: this.base, bytes: this.pending.subarray(0, take) });
        this.consume(take);
        state.remaining -= take;
        if (state.remaining > 0) return false;
        if (state.at === 'chunk-data') this.state = { at: 'chunk-end' };
        else this.endMessage(items, 0);
        return true;
      }
      case 'chunk-end': {
        if (this.pending.length < 2) {
          if (this.pending[0] !== CR) return this.fail(items, 'chunk data must be followed by CRLF');
          return false;
        }
        if (this.pending[0] !== CR || this.pending[1] !== LF) return this.fail(items, 'chunk data must be followed by CRLF (is the chunk size right?)');
        items.push({ type: 'chunk-end', offset: this.base, length: 2 });
        this.consume(2);
        this.state = { at: 'chunk-size' };
        return true;
      }
      case 'until-close':
        items.push({ type: 'data', offset: this.base, bytes: this.pending });
        this.consume(this.pending.length);
        return false;
      case 'failed':
        return false;
    }
  }

  /** Cut one CRLF-ended line off pending and hand it to the current state. */
  private line(items: Http1Item[]): boolean {
    const lf = this.pending.indexOf(LF, this.scanned);
    const inHead = this.state.at === 'start-line' || this.state.at === 'headers' || this.state.at === 'trailers';
    if (lf === -1) {
      this.scanned = this.pending.length;
      const limit = inHead ? this.maxHeadBytes - this.headBytes : 1024;
      if (this.pending.length > limit) return this.fail(items, inHead ? `the head is over ${this.maxHeadBytes} bytes` : 'a chunk-size line is over 1024 bytes');
      return false;
    }
    if (lf === 0 || this.pending[lf - 1] !== CR) return this.fail(items, 'a line ends in LF without CR');
    const length = lf + 1;
    if (inHead && this.headBytes + length > this.maxHeadBytes) return this.fail(items, `the head is over ${this.maxHeadBytes} bytes`);
    const text = latin1(this.pending.subarray(0, lf - 1));
    const offset = this.base;
    this.consume(length);
    if (inHead) this.headBytes += length;
    switch (this.state.at) {
      case 'start-line':
        return this.onStartLine(items, text, offset, length);
      case 'headers':
        return text === '' ? this.onHeadEnd(items, offset, length) : this.onField(items, text, offset, length, 'header');
      case 'trailers':
        if (text === '') return this.endMessage(items, length, offset);
        return this.onField(items, text, offset, length, 'trailer');
      case 'chunk-size':
        return this.onChunkSize(items, text, offset, length);
      default:
        return false;
    }
  }

  private onStartLine(items: Http1Item[], text: string, offset: number, length: number): boolean {
    if (this.kind === 'request') {
      const match = /^([^ ]+) ([^ ]+) (HTTP\/1\.[01])$/.exec(text);
      if (!match || !TOKEN.test(match[1]!) || !/^[\x21-\x7e]+$/.test(match[2]!)) return this.fail(items, `not an HTTP/1.1 request line: ${JSON.stringify(text.slice(0, 80))}`, offset);
      this.startLine = { text, method: match[1]!, target: match[2]!, version: match[3]! };
    } else {
      const match = /^(HTTP\/1\.[01]) ([0-9]{3})(?: (.*))?$/.exec(text);
      if (!match) return this.fail(items, `not an HTTP/1.1 status line: ${JSON.stringify(text.slice(0, 80))}`, offset);
      this.startLine = { text, status: Number(match[2]), reason: match[3] ?? '', version: match[1]! };
    }
    items.push({ type: 'start-line', offset, length, text });
    this.fields = [];
    this.state = { at: 'headers' };
    return true;
  }

  private onField(items: Http1Item[], text: string, offset: number, length: number, type: 'header' | 'trailer'): boolean {
    if (text.startsWith(' ') || text.startsWith('\t')) return this.fail(items, 'a folded header line (obsolete line folding is refused)', offset);
    const colon = text.indexOf(':');
    const name = colon === -1 ? '' : text.slice(0, colon);
    if (!TOKEN.test(name)) return this.fail(items, `not a header line: ${JSON.stringify(text.slice(0, 80))}`, offset);
    const value = text.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (/[\0-\x08\x0a-\x1f\x7f]/.test(value)) return this.fail(items, `a control character in the value of ${name}`, offset);
    if (type === 'header') this.fields.push({ name, value });
    items.push({ type, offset, length, name, value });
    return true;
  }

  private onHeadEnd(items: Http1Item[], offset: number, length: number): boolean {
    const start = this.startLine!;
    const headers: Record<string, string> = {};
    for (const { name, value } of this.fields) {
      const key = name.toLowerCase();
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    }
    const head: Http1Head =
      this.kind === 'request'
        ? { kind: 'request', method: start.method!, target: start.target!, version: start.version, fields: this.fields, headers }
        : { kind: 'response', status: start.status!, reason: start.reason!, version: start.version, fields: this.fields, headers };
    const framing = this.framingOf(head);
    if (typeof framing === 'string') return this.fail(items, framing, offset);
    items.push({ type: 'head-end', offset, length, head, ...framing });
    this.headBytes = 0;
    switch (framing.framing) {
      case 'none':
        return this.endMessage(items, 0);
      case 'content-length':
        if (framing.contentLength === 0) return this.endMessage(items, 0);
        this.state = { at: 'length', remaining: framing.contentLength! };
        return true;
      case 'chunked':
        this.state = { at: 'chunk-size' };
        return true;
      case 'until-close':
        this.state = { at: 'until-close' };
        return true;
    }
  }

  /** RFC 9112 section 6.3, the cases that apply here; a string is why the message is refused. */
  private framingOf(head: Http1Head): { framing: BodyFraming; contentLength?: number } | string {
    if (head.kind === 'response' && (head.status < 200 || head.status === 204 || head.status === 304)) return { framing: 'none' };
    const te = head.headers['transfer-encoding'];
    const cl = head.headers['content-length'];
    if (te !== undefined && cl !== undefined) return 'both Transfer-Encoding and Content-Length: the body length is ambiguous';
    if (te !== undefined) {
      const codings = te.toLowerCase().split(',').map((coding) => coding.trim());
      if (codings.at(-1) === 'chunked') return { framing: 'chunked' };
      return head.kind === 'request' ? `a request body coded ${te} without chunked last cannot be read` : { framing: 'until-close' };
    }
    if (cl !== undefined) {
      // Repeated Content-Length headers arrive joined with ", "; equal values are one length.
      const values = new Set(cl.split(',').map((value) => value.trim()));
      const only = [...values][0]!;
      if (values.size !== 1 || !/^[0-9]{1,15}$/.test(only)) return `not a valid Content-Length: ${JSON.stringify(cl)}`;
      return { framing: 'content-length', contentLength: Number(only) };
    }
    return { framing: head.kind === 'request' ? 'none' : 'until-close' };
  }

  private onChunkSize(items: Http1Item[], text: string, offset: number, length: number): boolean {
    // chunk-size [ ; chunk-ext ]: extensions are allowed and ignored.
    const match = /^([0-9A-Fa-f]{1,12})[ \t]*(;.*)?$/.exec(text);
    if (!match) return this.fail(items, `not a chunk-size line: ${JSON.stringify(text.slice(0, 40))}`, offset);
    const size = parseInt(match[1]!, 16);
    items.push({ type: 'chunk-size', offset, length, size });
    this.state = size === 0 ? { at: 'trailers' } : { at: 'chunk-data', remaining: size };
    return true;
  }

  private endMessage(items: Http1Item[], length: number, offset = this.base): boolean {
    items.push({ type: 'end', offset, length });
    this.state = { at: 'start-line' };
    this.startLine = null;
    this.fields = [];
    this.headBytes = 0;
    return true;
  }

  private consume(count: number): void {
    this.pending = count >= this.pending.length ? EMPTY : this.pending.subarray(count);
    this.base += count;
    this.scanned = 0;
  }

  private fail(items: Http1Item[], detail: string, offset = this.base): false {
    items.push({ type: 'error', offset, detail });
    this.state = { at: 'failed' };
    this.pending = EMPTY;
    return false;
  }
}
