// Binary content is pasted into the model's context as base64: unreadable for the model and, for a
// real screenshot, hundreds of kilobytes of context spent on noise.
// Caught by: "describes an image with a short placeholder instead of pasting its base64 data" and
// "shows audio, resource links and embedded resources as readable text".
//
// A copy of src/protocol/mcp-result-to-text.ts (imports rewritten to @protocol/…) with that one bug, plus
// re-exports of the reference for the rest of the learner file, so it can stand in for @learner.
// MUTANT marks the changed lines.

export { schemaToParams } from '@protocol/schema-to-params';
export { isLegalToolName, registerMcpTools, riskFromAnnotations } from '@protocol/register-mcp-tools';
export type { McpToolSource, RegisterMcpToolsOptions } from '@protocol/register-mcp-tools';

// A tools/call result becomes the one string a model reads as the tool's output. Text passes
// through; binary content becomes a short placeholder (a model cannot read base64 usefully, and
// it would flood the context); and a failed tool stays visibly failed, so the model can recover.

import type { CallToolResult } from '@protocol/mcp';

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
      return `[${block.type}: ${mimeOf(block)}] ${String(block.data)}`; // MUTANT: the data itself
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
