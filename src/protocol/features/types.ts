// The shapes of what a full MCP server offers beyond tools (2025-11-25 server features): resources
// and resource templates, prompts, logging, completion; and what a tool may do while it runs
// (report progress, log, ask the client for sampling or elicitation).

import type { JsonRpcMessage } from '../jsonrpc.ts';
import type { CallToolResult, ContentBlock, ToolInfo } from '../mcp.ts';

/** Where the server's messages for one request go: the HTTP request's stream, or stdout on stdio. */
export interface MessageContext {
  send(message: JsonRpcMessage): void;
  /** SSE polling over HTTP: end the connection, keep the stream. Absent on stdio. */
  closeConnection?(): void;
}

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a tool may do while it runs. */
export interface ToolContext {
  /** Aborted when the client cancels the call. */
  readonly signal: AbortSignal;
  /** The call's `_meta.progressToken`, if it asked for progress. */
  readonly progressToken: string | number | undefined;
  /** notifications/progress for this call; does nothing when no progress was asked for. */
  progress(progress: number, total?: number, message?: string): void;
  /** notifications/message, sent only at or above the level the client set with logging/setLevel. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** A request to the client (sampling/createMessage, elicitation/create, ...); resolves to its result. */
  request(method: string, params?: unknown): Promise<unknown>;
  /** The capabilities the client declared in initialize. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** Over HTTP: close this call's connection (not its stream); the client resumes after `retry`. */
  closeConnection(): void;
}

export interface FeatureTool {
  info: ToolInfo;
  run(args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult | string> | CallToolResult | string;
}

export type ResourceContents = { uri: string; mimeType?: string } & ({ text: string } | { blob: string });

export interface Resource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  read(): ResourceContents[] | Promise<ResourceContents[]>;
}

export interface ResourceTemplate {
  /** RFC 6570 level 1: `{name}` stands for one path segment's worth of text. */
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
  read(uri: string, variables: Record<string, string>): ResourceContents[] | Promise<ResourceContents[]>;
}

export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface Prompt {
  name: string;
  description?: string;
  arguments?: PromptArgument[];
  get(args: Record<string, string>): PromptMessage[] | Promise<PromptMessage[]>;
}

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Suggestions for one argument of a prompt or a resource template, given what was typed so far. */
export type Completer = (ref: CompletionRef, argument: { name: string; value: string }) => string[] | Promise<string[]>;
