// A tools/call result becomes the one string a model reads as the tool's output. Text passes
// through; binary content becomes a short placeholder (a model cannot read base64 usefully, and
// it would flood the context); and a failed tool stays visibly failed, so the model can recover.

import type { CallToolResult } from './mcp.ts';

/** Prefix that marks a result the server flagged with `isError: true`. */
export const TOOL_ERROR_PREFIX = '[tool error] ';

export function mcpResultToText(result: CallToolResult): string {
  const blocks: unknown[] = Array.isArray(result?.content) ? result.content : [];
  let body = blocks.map(blockToText).join('\n');
  if (blocks.length === 0) {
    // Since 2025-06-18 a tool may answer with structured data alone.
    body = result?.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(no content)';
  }
  return result?.isError === true ? TOOL_ERROR_PREFIX + body : body;
}

function blockToText(block: unknown): string {
  if (!isObject(block) || typeof block.type !== 'string') return '[unreadable content block]';
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '[text block without text]';
    case 'image':
    case 'audio':
      return `[${block.type}: ${mimeOf(block)}, ${base64ByteLength(block.data)} bytes]`;
    case 'resource_link': {
      const name = typeof block.name === 'string' ? `${block.name} ` : '';
      return `[resource link: ${name}<${String(block.uri)}>]`;
    }
    case 'resource':
      return embeddedResourceToText(block.resource);
    default:
      return `[${block.type} content]`;
  }
}

function embeddedResourceToText(resource: unknown): string {
  if (!isObject(resource)) return '[resource without contents]';
  const uri = String(resource.uri);
  // Embedded text is what the tool meant the model to read, so it is kept after the header.
  if (typeof resource.text === 'string') return `[resource: ${uri}]\n${resource.text}`;
  if (typeof resource.blob === 'string') return `[resource: ${uri}, ${mimeOf(resource)}, ${base64ByteLength(resource.blob)} bytes]`;
  return `[resource: ${uri}]`;
}

function mimeOf(block: Record<string, unknown>): string {
  return typeof block.mimeType === 'string' ? block.mimeType : 'unknown type';
}

/** Decoded size of base64 text, computed from its length: no decoding, no Buffer. */
export function base64ByteLength(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const compact = data.replace(/\s+/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.floor(((compact.length - padding) * 3) / 4);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
