import { describe, expect, it } from 'vitest';
import { base64ByteLength, mcpResultToText, TOOL_ERROR_PREFIX } from './mcp-result-to-text.ts';
import type { CallToolResult } from './mcp.ts';

describe('mcpResultToText', () => {
  it('passes a single text block through unchanged', () => {
    expect(mcpResultToText({ content: [{ type: 'text', text: 'hello from MCP' }] })).toBe('hello from MCP');
  });

  it('joins several blocks with newlines, in order', () => {
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'first' },
        { type: 'text', text: 'second' },
      ],
    };
    expect(mcpResultToText(result)).toBe('first\nsecond');
  });

  it('keeps isError visible, so the model sees the tool failed', () => {
    const text = mcpResultToText({ content: [{ type: 'text', text: 'file not found' }], isError: true });
    expect(text).toBe('[tool error] file not found');
    expect(text.startsWith(TOOL_ERROR_PREFIX)).toBe(true);
    expect(mcpResultToText({ content: [{ type: 'text', text: 'fine' }], isError: false })).toBe('fine');
  });

  it('replaces images and audio with a placeholder giving type and decoded size', () => {
    const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    expect(mcpResultToText({ content: [{ type: 'image', data: pixel, mimeType: 'image/png' }] })).toBe('[image: image/png, 70 bytes]');
    expect(mcpResultToText({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] })).toBe('[audio: audio/wav, 3 bytes]');
  });

  it('names resource links and embedded resources by uri, keeping embedded text', () => {
    const result: CallToolResult = {
      content: [
        { type: 'resource_link', uri: 'file:///notes.md', name: 'notes' },
        { type: 'resource_link', uri: 'file:///a.txt' },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'contents of b' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAAAA==', mimeType: 'application/octet-stream' } },
      ],
    };
    expect(mcpResultToText(result)).toBe(
      [
        '[resource link: notes <file:///notes.md>]',
        '[resource link: <file:///a.txt>]',
        '[resource: file:///b.txt]',
        'contents of b',
        '[resource: file:///c.bin, application/octet-stream, 4 bytes]',
      ].join('\n'),
    );
  });

  it('labels unknown and malformed blocks instead of failing', () => {
    const result = { content: [{ type: 'hologram', data: 'x' }, 42, { text: 'no type' }, { type: 'text' }] } as unknown as CallToolResult;
    expect(mcpResultToText(result)).toBe('[hologram content]\n[unreadable content block]\n[unreadable content block]\n[text block without text]');
  });

  it('handles empty content: structured data if any, else a marker, error flag kept', () => {
    expect(mcpResultToText({ content: [] })).toBe('(no content)');
    expect(mcpResultToText({ content: [], isError: true })).toBe('[tool error] (no content)');
    expect(mcpResultToText({ content: [], structuredContent: { temp: 21 } })).toBe('{"temp":21}');
    expect(mcpResultToText({} as CallToolResult)).toBe('(no content)');
  });
});

describe('base64ByteLength', () => {
  it('computes the decoded size from padding, without decoding', () => {
    expect(base64ByteLength('')).toBe(0);
    expect(base64ByteLength('aA==')).toBe(1);
    expect(base64ByteLength('aGk=')).toBe(2);
    expect(base64ByteLength('aGVsbG8=')).toBe(5);
    expect(base64ByteLength('aGVsbG8')).toBe(5); // unpadded
    expect(base64ByteLength('aGVs\nbG8=')).toBe(5); // line-wrapped
    expect(base64ByteLength(undefined)).toBe(0);
  });

  it('agrees with real decoding for any bytes', () => {
    for (let size = 0; size < 40; size++) {
      const bytes = new Uint8Array(size).map((_, index) => (index * 37) % 256);
      const base64 = btoa(String.fromCharCode(...bytes));
      expect(base64ByteLength(base64)).toBe(size);
    }
  });
});
