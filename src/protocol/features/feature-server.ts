// A full MCP server (2025-11-25): tools whose code may report progress, log, and ask the client
// things (sampling, elicitation); resources, templates and subscriptions; prompts; logging;
// completion. The lifecycle, ping and tools/list stay with the reference McpServer (the exercise-4
// solution), which this class wraps rather than changes; capabilities are declared from what is
// registered. Requests the server sends the client are filed in the same PendingRequests table the
// client uses, so answers pair by id in both directions.

import { ErrorCode, encodeError, encodeNotification, encodeRequest, encodeResult, idKey, isNotification, isRequest, validateMessage } from '../jsonrpc.ts';
import type { JsonRpcFailure, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc.ts';
import type { CallToolResult, Implementation } from '../mcp.ts';
import { PendingRequests } from '../pending-requests.ts';
import { McpServer } from '../server.ts';
import { validateArguments } from '../validate-arguments.ts';
import { LOG_LEVELS, type Completer, type FeatureTool, type LogLevel, type MessageContext, type Prompt, type Resource, type ResourceTemplate, type ToolContext } from './types.ts';
import { matchUriTemplate } from './uri-template.ts';

export interface FeatureServerOptions {
  serverInfo: Implementation;
  instructions?: string;
  tools?: readonly FeatureTool[];
  resources?: readonly Resource[];
  resourceTemplates?: readonly ResourceTemplate[];
  prompts?: readonly Prompt[];
  complete?: Completer;
  /** Declare `logging` (tools may log). Default true. */
  logging?: boolean;
  /** Where messages not tied to a request go (resource updates); the HTTP standalone stream. */
  channel?: MessageContext;
  /** Time the client has to answer a server request (sampling may wait for a person). Default 5 min. */
  clientRequestTimeoutMs?: number;
}

/** MCP's "resource not found" (2025-11-25, server/resources). */
export const RESOURCE_NOT_FOUND = -32002;

export class FeatureServer {
  readonly #inner: McpServer;
  readonly #options: FeatureServerOptions;
  readonly #tools = new Map<string, FeatureTool>();
  readonly #prompts = new Map<string, Prompt>();
  readonly #running = new Map<string, AbortController>();
  readonly #toClient = new PendingRequests();
  readonly #subscriptions = new Set<string>();
  #nextRequestId = 0;
  #clientCapabilities: Record<string, unknown> = {};
  /** Until logging/setLevel, every level is sent (the spec lets the server choose). */
  #logLevel: LogLevel = 'debug';

  constructor(options: FeatureServerOptions) {
    this.#options = options;
    for (const tool of options.tools ?? []) this.#tools.set(tool.info.name, tool);
    for (const prompt of options.prompts ?? []) this.#prompts.set(prompt.name, prompt);
    // tools/list and the name rules come from the reference server; its run() is never called.
    const listed = (options.tools ?? []).map((tool) => ({ info: tool.info, run: () => '' }));
    this.#inner = new McpServer({ serverInfo: options.serverInfo, instructions: options.instructions, tools: listed });
  }

  /** The capabilities this server declares: one per feature that has something registered. */
  get capabilities(): Record<string, unknown> {
    const capabilities: Record<string, unknown> = { tools: { listChanged: false } };
    if ((this.#options.resources?.length ?? 0) + (this.#options.resourceTemplates?.length ?? 0) > 0) {
      capabilities.resources = { subscribe: true, listChanged: false };
    }
    if (this.#prompts.size > 0) capabilities.prompts = { listChanged: false };
    if (this.#options.logging !== false) capabilities.logging = {};
    if (this.#options.complete !== undefined) capabilities.completions = {};
    return capabilities;
  }

  /** One incoming message; `context` carries what the server sends while handling it. */
  async handle(value: unknown, context?: MessageContext): Promise<JsonRpcResponse | null> {
    const outcome = validateMessage(value);
    if (!outcome.ok) return this.#inner.handle(value);
    const message = outcome.message;
    if (isNotification(message)) {
      if (message.method === 'notifications/cancelled') this.#cancel(message.params);
      return this.#inner.handle(value);
    }
    if (!isRequest(message)) return this.#settle(message), null;
    if (message.method === 'initialize') return this.#initialize(message);
    const refused = this.#gate(message);
    if (refused !== null) return refused;
    try {
      return await this.#dispatch(message, context);
    } catch (error) {
      return encodeError(message.id, ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
    }
  }

  /** notifications/resources/updated for a subscribed resource (on the server's own stream). */
  resourceUpdated(uri: string): void {
    if (this.#subscriptions.has(uri)) this.#options.channel?.send(encodeNotification('notifications/resources/updated', { uri }));
  }

  // ---- lifecycle ----

  async #initialize(request: JsonRpcRequest): Promise<JsonRpcResponse | null> {
    // Taken before the first await, like every lifecycle decision: a request pushed right behind
    // initialize must already see what the client declared.
    const params = request.params as { capabilities?: unknown } | undefined;
    const declared = params?.capabilities;
    if (this.#inner.phase === 'awaiting-initialize') {
      this.#clientCapabilities = typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : {};
    }
    const response = await this.#inner.handle(request);
    if (response === null || 'error' in response) return response;
    const result = response.result as Record<string, unknown>;
    return encodeResult(request.id, { ...result, capabilities: this.capabilities });
  }

  /** The reference server's gate, for the methods this class answers itself. */
  #gate(request: JsonRpcRequest): JsonRpcFailure | null {
    if (request.method === 'ping' || request.method === 'tools/list') return null;
    if (this.#inner.phase === 'awaiting-initialize') return encodeError(request.id, ErrorCode.InvalidRequest, `${request.method} before initialize: the client must send initialize first`);
    if (this.#inner.phase === 'awaiting-initialized') {
      return encodeError(request.id, ErrorCode.InvalidRequest, `${request.method} before the handshake finished: the client must send notifications/initialized first`);
    }
    return null;
  }

  async #dispatch(request: JsonRpcRequest, context: MessageContext | undefined): Promise<JsonRpcResponse | null> {
    const { id } = request;
    const params = isObject(request.params) ? request.params : {};
    switch (request.method) {
      case 'tools/call':
        return this.#callTool(request, params, context);
      case 'resources/list':
        return encodeResult(id, { resources: (this.#options.resources ?? []).map(({ uri, name, description, mimeType }) => clean({ uri, name, description, mimeType })) });
      case 'resources/templates/list':
        return encodeResult(id, {
          resourceTemplates: (this.#options.resourceTemplates ?? []).map(({ uriTemplate, name, description, mimeType }) => clean({ uriTemplate, name, description, mimeType })),
        });
      case 'resources/read':
        return this.#readResource(id, params.uri);
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        if (typeof params.uri !== 'string') return encodeError(id, ErrorCode.InvalidParams, `${request.method} needs params.uri (a string)`);
        if (request.method === 'resources/subscribe') this.#subscriptions.add(params.uri);
        else this.#subscriptions.delete(params.uri);
        return encodeResult(id, {});
      }
      case 'prompts/list':
        return encodeResult(id, { prompts: [...this.#prompts.values()].map(({ name, description, arguments: args }) => clean({ name, description, arguments: args })) });
      case 'prompts/get':
        return this.#getPrompt(id, params);
      case 'logging/setLevel': {
        if (!(LOG_LEVELS as readonly unknown[]).includes(params.level)) return encodeError(id, ErrorCode.InvalidParams, `Invalid log level: ${JSON.stringify(params.level)}; use one of ${LOG_LEVELS.join(', ')}`);
        this.#logLevel = params.level as LogLevel;
        return encodeResult(id, {});
      }
      case 'completion/complete':
        return this.#complete(id, params);
      default:
        return this.#inner.handle(request);
    }
  }

  // ---- tools ----

  async #callTool(request: JsonRpcRequest, params: Record<string, unknown>, context: MessageContext | undefined): Promise<JsonRpcResponse | null> {
    const { id } = request;
    if (typeof params.name !== 'string') return encodeError(id, ErrorCode.InvalidParams, 'tools/call needs params.name (a string)');
    const tool = this.#tools.get(params.name);
    if (tool === undefined) return encodeError(id, ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) return encodeError(id, ErrorCode.InvalidParams, 'tools/call params.arguments must be an object');
    const problems = validateArguments(tool.info.inputSchema, args);
    if (problems.length > 0) return encodeResult(id, failure(`Invalid arguments for tool ${tool.info.name}: ${problems.join('; ')}`));

    const key = idKey(id);
    if (this.#running.has(key)) return encodeError(id, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(id)} is already in use by a call in flight`);
    const controller = new AbortController();
    this.#running.set(key, controller);
    try {
      const result = await this.#run(tool, args, this.#toolContext(params, controller.signal, context));
      return controller.signal.aborted ? null : encodeResult(id, result);
    } finally {
      this.#running.delete(key);
    }
  }

  /** As in the reference server: a tool that throws gives a result with isError, not a protocol error. */
  async #run(tool: FeatureTool, args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult> {
    try {
      const output = await tool.run(args, context);
      if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
      if (!isObject(output) || !Array.isArray(output.content)) return failure(`tool ${tool.info.name} returned neither a string nor a { content: [...] } result`);
      return output;
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  }

  #toolContext(params: Record<string, unknown>, signal: AbortSignal, context: MessageContext | undefined): ToolContext {
    const meta = isObject(params._meta) ? params._meta : {};
    const token = typeof meta.progressToken === 'string' || (typeof meta.progressToken === 'number' && Number.isInteger(meta.progressToken)) ? meta.progressToken : undefined;
    const send = (message: Parameters<MessageContext['send']>[0]) => context?.send(message);
    return {
      signal,
      progressToken: token,
      clientCapabilities: this.#clientCapabilities,
      progress: (progress, total, message) => {
        if (token !== undefined) send(encodeNotification('notifications/progress', clean({ progressToken: token, progress, total, message })));
      },
      log: (level, data, logger) => {
        if (LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.#logLevel)) send(encodeNotification('notifications/message', clean({ level, logger, data })));
      },
      request: (method, requestParams) => {
        if (context === undefined) return Promise.reject(new Error(`${method}: no way to reach the client from here`));
        const id = this.#nextRequestId++;
        const answer = this.#toClient.add(id, method, this.#options.clientRequestTimeoutMs ?? 300_000);
        send(encodeRequest(id, method, requestParams));
        return answer;
      },
      closeConnection: () => context?.closeConnection?.(),
    };
  }

  /** A response from the client to one of our requests. */
  #settle(response: JsonRpcResponse): void {
    if (response.id === null || response.id === undefined) return;
    const waiter = this.#toClient.take(response.id);
    if (waiter === undefined) return; // late or unknown: ignored quietly, as the spec asks
    if ('error' in response) waiter.reject(new Error(`${waiter.method} failed with JSON-RPC error ${response.error.code}: ${response.error.message}`));
    else waiter.resolve(response.result);
  }

  #cancel(params: unknown): void {
    const requestId = isObject(params) ? params.requestId : undefined;
    if (typeof requestId === 'string' || typeof requestId === 'number') this.#running.get(idKey(requestId))?.abort();
  }

  // ---- resources, prompts, completion ----

  async #readResource(id: JsonRpcRequest['id'], uri: unknown): Promise<JsonRpcResponse> {
    if (typeof uri !== 'string') return encodeError(id, ErrorCode.InvalidParams, 'resources/read needs params.uri (a string)');
    const resource = this.#options.resources?.find((candidate) => candidate.uri === uri);
    if (resource !== undefined) return encodeResult(id, { contents: await resource.read() });
    for (const template of this.#options.resourceTemplates ?? []) {
      const variables = matchUriTemplate(template.uriTemplate, uri);
      if (variables !== null) return encodeResult(id, { contents: await template.read(uri, variables) });
    }
    return encodeError(id, RESOURCE_NOT_FOUND, 'Resource not found', { uri });
  }

  async #getPrompt(id: JsonRpcRequest['id'], params: Record<string, unknown>): Promise<JsonRpcResponse> {
    const prompt = typeof params.name === 'string' ? this.#prompts.get(params.name) : undefined;
    if (prompt === undefined) return encodeError(id, ErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(params.name)}`);
    const given = isObject(params.arguments) ? params.arguments : {};
    const args: Record<string, string> = {};
    for (const [name, value] of Object.entries(given)) if (typeof value === 'string') args[name] = value;
    const missing = (prompt.arguments ?? []).filter((argument) => argument.required === true && args[argument.name] === undefined).map((argument) => argument.name);
    if (missing.length > 0) return encodeError(id, ErrorCode.InvalidParams, `Missing required arguments for prompt ${prompt.name}: ${missing.join(', ')}`);
    return encodeResult(id, clean({ description: prompt.description, messages: await prompt.get(args) }));
  }

  async #complete(id: JsonRpcRequest['id'], params: Record<string, unknown>): Promise<JsonRpcResponse> {
    const ref = params.ref;
    const argument = params.argument;
    if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      return encodeError(id, ErrorCode.InvalidParams, 'completion/complete needs params.ref and params.argument { name, value }');
    }
    const values = (await this.#options.complete?.(ref as never, { name: argument.name, value: argument.value })) ?? [];
    // At most 100 values per response (server/utilities/completion); `total` says how many there were.
    return encodeResult(id, { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } });
  }
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drop undefined fields, so optional ones are omitted rather than sent as null. */
function clean<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
