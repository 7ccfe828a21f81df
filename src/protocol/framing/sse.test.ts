import { describe, expect, it } from 'vitest';
import { encodeSseEvent, encodeSseText, SseReader, type SseEvent, type SseReadItem } from './sse.ts';

const utf8 = new TextEncoder();
const bytes = (text: string) => utf8.encode(text);

function events(items: readonly SseReadItem[]): SseEvent[] {
  return items.flatMap((item) => (item.type === 'event' ? [item.event] : []));
}

function read(text: string | Uint8Array, reader = new SseReader()): SseEvent[] {
  return events(reader.push(typeof text === 'string' ? bytes(text) : text));
}

/** Push one byte at a time: the harshest chunking there is. */
function readBytewise(text: string, reader = new SseReader()): SseEvent[] {
  const whole = bytes(text);
  const found: SseReadItem[] = [];
  for (let i = 0; i < whole.length; i++) found.push(...reader.push(whole.subarray(i, i + 1)));
  return events(found);
}

describe('SseReader: dispatch rules', () => {
  it('reads one event with type "message" and the data', () => {
    expect(read('data: hello\n\n')).toEqual([{ type: 'message', data: 'hello', id: '' }]);
  });

  it('joins multi-line data with LF and drops only the last LF', () => {
    expect(read('data: one\ndata:two\ndata\ndata:  four\n\n')).toEqual([{ type: 'message', data: 'one\ntwo\n\n four', id: '' }]);
  });

  it('accepts LF, CRLF and CR line ends, mixed in one stream', () => {
    expect(read('data: a\r\n\r\ndata: b\r\rdata: c\n\r\n')).toEqual([
      { type: 'message', data: 'a', id: '' },
      { type: 'message', data: 'b', id: '' },
      { type: 'message', data: 'c', id: '' },
    ]);
  });

  it('keeps a CRLF split across two chunks as one line end (no extra blank line)', () => {
    const reader = new SseReader();
    expect(events(reader.push(bytes('data: a\r')))).toEqual([]);
    expect(events(reader.push(bytes('\ndata: b\r')))).toEqual([]);
    // The LF that completes "\r\n" is not a second, blank line: the event has both data lines.
    expect(events(reader.push(bytes('\n\r\n')))).toEqual([{ type: 'message', data: 'a\nb', id: '' }]);
  });

  it('dispatches on a CR that ends a chunk, without waiting for the next byte', () => {
    const reader = new SseReader();
    expect(events(reader.push(bytes('data: x\r\r')))).toEqual([{ type: 'message', data: 'x', id: '' }]);
    expect(events(reader.push(bytes('\ndata: y\n\n')))).toEqual([{ type: 'message', data: 'y', id: '' }]);
  });

  it('ignores comments, unknown fields and fields without a value', () => {
    expect(read(': keep-alive\nfoo: bar\ndata: x\n:another\nevent\n\n')).toEqual([{ type: 'message', data: 'x', id: '' }]);
  });

  it('treats a line without a colon as a field with an empty value', () => {
    expect(read('data\n\n')).toEqual([{ type: 'message', data: '', id: '' }]);
    expect(read('data\ndata\n\n')).toEqual([{ type: 'message', data: '\n', id: '' }]);
  });

  it('names the type with `event`, which resets after each dispatch', () => {
    expect(read('event: ping\ndata: 1\n\ndata: 2\n\n')).toEqual([
      { type: 'ping', data: '1', id: '' },
      { type: 'message', data: '2', id: '' },
    ]);
  });

  it('keeps the last event id across events, and an empty id resets it', () => {
    expect(read('id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n')).toEqual([
      { type: 'message', data: 'a', id: '7' },
      { type: 'message', data: 'b', id: '7' },
      { type: 'message', data: 'c', id: '' },
    ]);
  });

  it('ignores an id containing U+0000', () => {
    const reader = new SseReader();
    expect(read('id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\n', reader).map((event) => event.id)).toEqual(['1', '1']);
    expect(reader.lastEventId).toBe('1');
  });

  it('dispatches no event for a block without data, but still moves the last event id', () => {
    const reader = new SseReader();
    expect(read('id: 42\n\nevent: x\n\n', reader)).toEqual([]);
    expect(reader.lastEventId).toBe('42');
  });

  it('dispatches the priming event (id, empty data) with empty data', () => {
    const reader = new SseReader();
    expect(read('id: s1-0\ndata:\n\n', reader)).toEqual([{ type: 'message', data: '', id: 's1-0' }]);
    expect(reader.lastEventId).toBe('s1-0');
  });

  it('takes retry only when it is all ASCII digits', () => {
    const reader = new SseReader();
    read('retry: 1500\n\n', reader);
    expect(reader.retry).toBe(1500);
    read('retry: 15a\nretry: -1\nretry:\nretry: 2 \n\n', reader);
    expect(reader.retry).toBe(1500);
    read('retry:0\n\n', reader);
    expect(reader.retry).toBe(0);
  });

  it('removes one space after the colon, not two', () => {
    expect(read('data:  two spaces\n\n')[0]!.data).toBe(' two spaces');
    expect(read('event:x\ndata:y\n\n')[0]).toEqual({ type: 'x', data: 'y', id: '' });
  });

  it('drops a BOM at the start of the stream only, even when split across chunks', () => {
    const stream = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('data: a\n\ndata: \ufeffb\n\n')]);
    const reader = new SseReader();
    const found = [...reader.push(stream.subarray(0, 1)), ...reader.push(stream.subarray(1, 2)), ...reader.push(stream.subarray(2))];
    expect(events(found)).toEqual([
      { type: 'message', data: 'a', id: '' },
      { type: 'message', data: '\ufeffb', id: '' },
    ]);
    // A BOM at the start of the first line makes that line "data", not "\ufeffdata".
    expect(read(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('data: x\n\n')]))).toEqual([{ type: 'message', data: 'x', id: '' }]);
  });

  it('drops exactly one BOM: a second one starts the first line\'s name, however the first is cut', () => {
    // Node 24's streaming TextDecoder drops both when the first chunk ends inside the first BOM.
    const stream = new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...bytes('data\n\ndata: y\n\n')]);
    for (let cut = 0; cut <= 6; cut++) {
      const reader = new SseReader();
      expect(events([...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))])).toEqual([{ type: 'message', data: 'y', id: '' }]);
    }
  });

  it('never dispatches an event the stream did not end with a blank line', () => {
    const reader = new SseReader();
    expect(read('data: complete\n\ndata: cut off\n', reader)).toEqual([{ type: 'message', data: 'complete', id: '' }]);
    expect(reader.bufferedBytes).toBe(0);
    expect(read('data: partial', reader)).toEqual([]);
    expect(reader.bufferedBytes).toBe('data: partial'.length);
  });

  it('decodes UTF-8 split inside characters, and replaces invalid bytes with U+FFFD', () => {
    expect(readBytewise('data: 你好 🚀\n\n')).toEqual([{ type: 'message', data: '你好 🚀', id: '' }]);
    expect(read(new Uint8Array([...bytes('data: '), 0xff, 0xe4, 0xbd, ...bytes('\n\n')]))).toEqual([{ type: 'message', data: '\ufffd\ufffd', id: '' }]);
    // A character cut off by the line end, with the line end in the next chunk: still one U+FFFD, in this line.
    const reader = new SseReader();
    expect(events(reader.push(new Uint8Array([...bytes('data: a'), 0xf0, 0x9f])))).toEqual([]);
    expect(events(reader.push(bytes('\n\n')))).toEqual([{ type: 'message', data: 'a\ufffd', id: '' }]);
  });

  it('keeps control bytes other than CR and LF in values', () => {
    // The line-end scan first looks for any byte below 14 (see findLineEnd): these are not line ends.
    expect(read('data: a\tb\u000bc\u000cd\u0000e\n\n')).toEqual([{ type: 'message', data: 'a\tb\u000bc\u000cd\u0000e', id: '' }]);
  });

  it('copies what it holds: the caller may reuse a chunk after push', () => {
    const reader = new SseReader();
    const chunk = bytes('data: hel');
    expect(events(reader.push(chunk))).toEqual([]);
    chunk.fill(0x78);
    expect(events(reader.push(bytes('lo\n\n')))).toEqual([{ type: 'message', data: 'hello', id: '' }]);
  });

  it('reads the same events a byte at a time', () => {
    const text = 'retry: 10\r\nid: 1\r\nevent: e\r\ndata: a\r\ndata: b\r\n\r\n: c\rdata: z\r\r';
    expect(readBytewise(text)).toEqual(read(text));
  });

  it('gives each event its byte span, from its first line to its blank line', () => {
    const reader = new SseReader();
    const items = reader.push(bytes('data: a\n\n: note\nid: 1\ndata: b\r\n\r\n'));
    expect(items).toEqual([
      { type: 'event', event: { type: 'message', data: 'a', id: '' }, offset: 0, length: 9 },
      { type: 'event', event: { type: 'message', data: 'b', id: '1' }, offset: 9, length: 23 },
    ]);
  });
});

describe('SseReader: limits', () => {
  it('reports a line over the limit once and drops its event, then reads on', () => {
    const reader = new SseReader({ maxMessageBytes: 16 });
    const items = reader.push(bytes(`data: ${'x'.repeat(40)}\ndata: more\n\ndata: ok\n\n`));
    expect(items.map((item) => (item.type === 'event' ? item.event.data : item.kind))).toEqual(['too-large', 'ok']);
    expect(items[0]!.offset).toBe(0);
  });

  it('stops holding a line that never ends', () => {
    const reader = new SseReader({ maxMessageBytes: 16 });
    const first = reader.push(bytes('data: 0123456789abcdef'));
    expect(first.map((item) => item.type)).toEqual(['error']);
    expect(reader.push(bytes('x'.repeat(100)))).toEqual([]);
    expect(reader.bufferedBytes).toBe(0);
    expect(events(reader.push(bytes('\n\ndata: ok\n\n')))).toEqual([{ type: 'message', data: 'ok', id: '' }]);
  });

  it('reports data lines that add up to more than the limit', () => {
    const reader = new SseReader({ maxMessageBytes: 16 });
    const items = reader.push(bytes('data: 12345678\ndata: 12345678\n\ndata: ok\n\n'));
    expect(items.map((item) => (item.type === 'event' ? item.event.data : item.kind))).toEqual(['too-large', 'ok']);
    expect(items[0]!.offset).toBe(15);
  });
});

describe('encodeSseEvent', () => {
  it('writes the fields, one data line per line of data, and the blank line', () => {
    expect(encodeSseText({ id: '3', event: 'note', retry: 500, data: 'a\nb' })).toBe('event: note\nid: 3\nretry: 500\ndata: a\ndata: b\n\n');
    expect(encodeSseText({ id: 'p', data: '' })).toBe('id: p\ndata: \n\n');
    expect(encodeSseText({ comment: 'hi' })).toBe(': hi\n\n');
    expect(encodeSseEvent({ data: '你' })).toEqual(bytes('data: 你\n\n'));
  });

  it('refuses what SSE cannot carry', () => {
    expect(() => encodeSseText({ id: 'a\nb' })).toThrow(TypeError);
    expect(() => encodeSseText({ event: 'x\ry' })).toThrow(TypeError);
    expect(() => encodeSseText({ id: 'a\0' })).toThrow(TypeError);
    expect(() => encodeSseText({ retry: -1 })).toThrow(TypeError);
    expect(() => encodeSseText({ retry: 1.5 })).toThrow(TypeError);
  });

  it('round-trips data with CRLF and CR as LF', () => {
    expect(read(encodeSseEvent({ data: 'a\r\nb\rc\nd' }))).toEqual([{ type: 'message', data: 'a\nb\nc\nd', id: '' }]);
  });
});
