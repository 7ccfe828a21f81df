// 一个 tools/call 结果变成模型读到的那一个字符串，作为工具的输出。文本原样通过；
// 二进制内容变成一个简短的占位符（模型没法有效地读 base64，而且它会塞满上下文）；
// 失败的工具保持明显的失败状态，这样模型才能恢复。

import type { CallToolResult } from './mcp.ts';

/** 标记服务器用 `isError: true` 标出的结果的前缀。 */
export const TOOL_ERROR_PREFIX = '[tool error] ';

export function mcpResultToText(result: CallToolResult): string {
  const blocks: unknown[] = Array.isArray(result?.content) ? result.content : [];
  let body = blocks.map(blockToText).join('\n');
  if (blocks.length === 0) {
    // 从 2025-06-18 起，工具可以只用结构化数据来回答。
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
  // 嵌入的文本是工具本来想让模型读的内容，所以把它保留在标题之后。
  if (typeof resource.text === 'string') return `[resource: ${uri}]\n${resource.text}`;
  if (typeof resource.blob === 'string') return `[resource: ${uri}, ${mimeOf(resource)}, ${base64ByteLength(resource.blob)} bytes]`;
  return `[resource: ${uri}]`;
}

function mimeOf(block: Record<string, unknown>): string {
  return typeof block.mimeType === 'string' ? block.mimeType : 'unknown type';
}

/** 根据 base64 文本的长度算出解码后的大小：不解码，也不用 Buffer。 */
export function base64ByteLength(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const compact = data.replace(/\s+/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.floor(((compact.length - padding) * 3) / 4);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
