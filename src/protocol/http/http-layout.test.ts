import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { encodeSseEvent } from '../framing/sse.ts';
import { encodeChunk, LAST_CHUNK, serializeRequest, serializeResponseHead } from './http1-writer.ts';
import { headerNamesInOtherCase, httpLayout } from './http-layout.ts';

const utf8 = new TextEncoder();
const text = (bytes: Uint8Array, range: { start: number; end: number }) => new TextDecoder().decode(bytes.subarray(range.start, range.end));

describe('httpLayout', () => {
  it('splits a request into its line, each header (MCP ones singled out), the blank line and the body', () => {
    const body = utf8.encode('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const bytes = serializeRequest({
      method: 'POST',
      target: '/mcp',
      headers: [['Host', '127.0.0.1'], ['Origin', 'http://127.0.0.1:5173'], ['Accept', 'application/json, text/event-stream'], ['Content-Type', 'application/json'], ['Mcp-Session-Id', 'abc'], ['MCP-Protocol-Version', '2025-11-25'], ['X-Other', 'y']],
      body,
    });
    const layout = httpLayout(bytes, 'request');
    expect(layout.error).toBeNull();
    expect(layout.parts.map((part) => part.kind)).toEqual(['start-line', ...Array(8).fill('header'), 'blank-line', 'body']);
    const headers = layout.parts.flatMap((part) => (part.kind === 'header' ? [[part.name, part.singled]] : []));
    expect(headers).toEqual([
      ['Host', null],
      ['Origin', 'origin'],
      ['Accept', 'accept'],
      ['Content-Type', 'content-type'],
      ['Mcp-Session-Id', 'mcp-session-id'],
      ['MCP-Protocol-Version', 'mcp-protocol-version'],
      ['X-Other', null],
      ['Content-Length', 'content-length'],
    ]);
    // Content-Length counts the body's bytes, here as in the chapter's framing.
    expect(layout.declaredLength).toBe(body.length);
    expect(layout.body).toEqual(body);
    const value = layout.fields.find((field) => field.kind === 'header-value' && text(bytes, field) === 'abc');
    expect(value).toBeDefined();
    expect(text(bytes, layout.fields.find((field) => field.kind === 'start-line')!)).toBe('POST /mcp HTTP/1.1');
  });

  it('reads a chunked event stream: size lines, chunk data, each SSE field, and the event each blank line dispatches', () => {
    const events = [
      encodeSseEvent({ id: 's/0', retry: 1000, data: '' }),
      encodeSseEvent({ id: 's/1', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } }) }),
      encodeSseEvent({ comment: 'keep-alive' }),
      encodeSseEvent({ id: 's/2', event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '你好' }] } }) }),
    ];
    // The last event is cut across two chunks, in the middle of 你.
    const last = events[3]!;
    const cut = new TextDecoder().decode(last).indexOf('你') + 10;
    const chunks = [events[0]!, events[1]!, events[2]!, last.subarray(0, cut), last.subarray(cut)];
    const bytes = concatBytes([serializeResponseHead(200, [['Content-Type', 'text/event-stream'], ['Transfer-Encoding', 'chunked']]), ...chunks.map(encodeChunk), LAST_CHUNK]);
    const layout = httpLayout(bytes, 'response');
    expect(layout.error).toBeNull();
    expect(layout.isEventStream).toBe(true);
    expect(layout.parts.filter((part) => part.kind === 'chunk-size').map((part) => (part as { size: number }).size)).toEqual([...chunks.map((chunk) => chunk.length), 0]);
    // Size line, the data it announces (then the SSE lines in it), the CRLF after: in wire order.
    const framing = layout.parts.filter((part) => part.kind.startsWith('chunk')).map((part) => part.kind);
    expect(framing).toEqual([...chunks.flatMap(() => ['chunk-size', 'chunk-data', 'chunk-end']), 'chunk-size']);
    const dataSizes = layout.parts.flatMap((part) => (part.kind === 'chunk-data' ? [part.end - part.start] : []));
    expect(dataSizes).toEqual(chunks.map((chunk) => chunk.length));
    const firstData = layout.parts.findIndex((part) => part.kind === 'chunk-data');
    expect(layout.parts[firstData + 1]).toMatchObject({ kind: 'sse-field', name: 'id' });
    expect(layout.events.map((event) => event.summary)).toEqual(['priming', 'notifications/progress', 'priming', 'result #2']);
    expect(layout.events[0]).toMatchObject({ id: 's/0', retry: 1000 });
    expect(layout.events[3]!.message).toMatchObject({ result: { content: [{ text: '你好' }] } });
    // The data line straddling the chunk boundary is one field with two byte ranges, around the chunk framing.
    const straddling = layout.parts.find((part) => part.kind === 'sse-field' && part.name === 'data' && part.event === 3);
    expect(straddling && 'ranges' in straddling ? straddling.ranges.length : 0).toBe(2);
    expect(layout.parts.some((part) => part.kind === 'sse-comment' && part.text === 'keep-alive')).toBe(true);
  });

  it('gives every byte of any well-formed response exactly one field', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 4 }), fc.boolean(), (datas, chunked) => {
        const payload = concatBytes(datas.map((data) => encodeSseEvent({ data })));
        const bytes = chunked
          ? concatBytes([serializeResponseHead(200, [['Content-Type', 'text/event-stream'], ['Transfer-Encoding', 'chunked']]), ...(payload.length > 0 ? [encodeChunk(payload)] : []), LAST_CHUNK])
          : concatBytes([serializeResponseHead(200, [['Content-Type', 'text/event-stream'], ['Content-Length', String(payload.length)]]), payload]);
        const layout = httpLayout(bytes, 'response');
        const covered = new Array<number>(bytes.length).fill(0);
        for (const field of layout.fields) for (let i = field.start; i < field.end; i++) covered[i]!++;
        expect(covered.every((count) => count === 1)).toBe(true);
        expect(layout.events.map((event) => event.data)).toEqual(datas.map((data) => new TextDecoder().decode(utf8.encode(data)).replace(/\r\n|\r/g, '\n')));
      }),
    );
  });

  it('reads a stream still open as far as it goes, and calls it cut short only once the connection closed', () => {
    const bytes = concatBytes([serializeResponseHead(200, [['Content-Type', 'text/event-stream'], ['Transfer-Encoding', 'chunked']]), encodeChunk(encodeSseEvent({ id: 'a/0', data: '' }))]);
    const open = httpLayout(bytes, 'response', { ended: false });
    expect(open.error).toBeNull();
    expect(open.events.map((event) => event.summary)).toEqual(['priming']);
    expect(httpLayout(bytes, 'response').error).toMatch(/closed in the middle/);
  });

  it('marks what it cannot read, from where the reader stopped', () => {
    const bytes = utf8.encode('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}');
    const layout = httpLayout(bytes, 'response');
    expect(layout.error).toMatch(/Content-Length/);
    expect(layout.parts.at(-1)).toMatchObject({ kind: 'error' });
    expect(layout.fields.at(-1)).toMatchObject({ kind: 'junk', end: bytes.length });
  });
});

describe('headerNamesInOtherCase', () => {
  const response = (head: string) => new TextEncoder().encode(`HTTP/1.1 200 OK\r\n${head}\r\n\r\n{}`);
  it('names the headers spelled otherwise than usual (the bridge\'s node:http), once each', () => {
    const layout = httpLayout(response('content-type: application/json\r\nmcp-session-id: abc\r\nMcp-Session-Id: abc\r\ncontent-length: 2'), 'response', { ended: true });
    expect(headerNamesInOtherCase(layout.parts)).toEqual(['content-type', 'mcp-session-id', 'content-length']);
  });
  it('names none when every header is spelled as the specification spells it (the worker host)', () => {
    const layout = httpLayout(response('Content-Type: application/json\r\nMcp-Session-Id: abc\r\nMCP-Protocol-Version: 2025-11-25\r\nLast-Event-ID: 1/0\r\nContent-Length: 2'), 'response', { ended: true });
    expect(layout.parts.filter((part) => part.kind === 'header')).toHaveLength(5);
    expect(headerNamesInOtherCase(layout.parts)).toEqual([]);
  });
});

