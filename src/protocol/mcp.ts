// The slice of MCP's vocabulary this chapter uses: versions, the initialize result, tools and
// tool results. Types only, plus the version list every part agrees on.

/** Handshake-era protocol versions, oldest first. The last one is what we offer and prefer. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';

export interface Implementation {
  name: string;
  version: string;
}

export interface InitializeParams {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: Implementation;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: { tools?: { listChanged?: boolean }; [capability: string]: unknown };
  serverInfo: Implementation;
  instructions?: string;
}

/** A JSON Schema object, loosely typed: tools describe their arguments with it. */
export type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What tools/list reports for one tool. */
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: ToolAnnotations;
}

export interface ListToolsResult {
  tools: ToolInfo[];
  nextCursor?: string;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string }
  | { type: 'resource'; resource: { uri: string; text?: string; blob?: string; mimeType?: string } }
  | { type: string; [field: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}
