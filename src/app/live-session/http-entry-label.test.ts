import { describe, expect, it } from 'vitest';
import { httpChunkLabel, httpStartLine } from './http-entry-label.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const entry = (text: string, conn?: number) => ({ seq: 1, t: 1, type: 'bytes' as const, direction: 'c2s' as const, bytes: bytes(text), text, frames: [], bufferedBytes: 0, ...(conn === undefined ? {} : { conn }) });

describe('httpStartLine', () => {
  it('reads a request line or a status line at the start of a chunk', () => {
    expect(httpStartLine(bytes('GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n'))).toBe('GET /mcp HTTP/1.1');
    expect(httpStartLine(bytes('DELETE /mcp HTTP/1.1\r\n'))).toBe('DELETE /mcp HTTP/1.1');
    expect(httpStartLine(bytes('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n'))).toBe('HTTP/1.1 202 Accepted');
  });

  it('says null for a chunk that continues a message', () => {
    expect(httpStartLine(bytes('1f\r\ndata: {}\r\n'))).toBeNull();
    expect(httpStartLine(bytes('{"jsonrpc":"2.0"}'))).toBeNull();
    expect(httpStartLine(bytes('GET /mcp HTTP/1.1'))).toBeNull(); // the line has not ended in this chunk
  });
});

describe('httpChunkLabel', () => {
  it('names the HTTP message a connection chunk starts, or a part of one; nothing for stdio bytes', () => {
    expect(httpChunkLabel(entry('HTTP/1.1 202 Accepted\r\n\r\n', 3))).toEqual({ kind: 'message', startLine: 'HTTP/1.1 202 Accepted' });
    expect(httpChunkLabel(entry('0\r\n\r\n', 3))).toEqual({ kind: 'part' });
    expect(httpChunkLabel(entry('{"jsonrpc":"2.0"}\n'))).toBeNull();
  });
});
