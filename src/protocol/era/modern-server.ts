// The 2026-07-28 server: stateless, one request at a time, everything it needs in the request.
// Every request carries `_meta` (protocolVersion, clientCapabilities, optionally clientInfo and
// logLevel), checked before anything else; every result carries `resultType` and the server's
// identity in `_meta`; list results carry caching hints; server-to-client requests become
// InputRequiredResults the client answers by retrying (MRTR); change notifications flow only on a
// `subscriptions/listen` request's own stream. Removed methods (initialize, ping, logging/setLevel,
// resources/subscribe) are simply unknown here: -32601.
//
// `handle` answers a response plus the HTTP status the Streamable HTTP binding gives it (400 for
// envelope, version and capability errors, 404 for an unknown method, else 200); stdio ignores it.

import { ErrorCode, encodeError, encodeNotification, encodeResult, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../jsonrpc.ts';
import type { CallToolResult, Implementation } from '../mcp.ts';
import { LOG_LEVELS, type Completer, type LogLevel, type Resource, type ResourceTemplate } from '../features/types.ts';
import { matchUriTemplate } from '../features/uri-template.ts';
import { validateArguments } from '../validate-arguments.ts';
import {
  DUAL_ERA_PROTOCOL_VERSIONS,
  EraErrorCode,
  MODERN_PROTOCOL_VERSIONS,
  META_SUBSCRIPTION_ID,
  RESULT_TYPE_INPUT_REQUIRED,
  readEnvelope,
  stampResult,
  unsupportedVersionData,
  type ClientCapabilities,
  type RequestEnvelope,
} from './meta.ts';
import { argumentsDigest, createRequestStateSealer, type RequestStateSealer } from './request-state.ts';
import {
  isInputRequired,
  missingCapabilities,
  requiredCapabilityOf,
  type EraContext,
  type EraPrompt,
  type EraTool,
  type InputRequiredResult,
  type InputResponses,
  type ToolOutput,
} from './types.ts';

export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

export interface ModernServerOptions {
  serverInfo: Implementation;
  instructions?: string;
  tools?: readonly EraTool[];
  resources?: readonly Resource[];
  resourceTemplates?: readonly ResourceTemplate[];
  prompts?: readonly EraPrompt[];
  complete?: Completer;
  /** Declare `logging` (tools may log when a request asks with `_meta` logLevel). Default true. */
  logging?: boolean;
  /** Declare listChanged for tools/prompts/resources and deliver it on subscriptions/listen. Default false. */
  listChanged?: boolean;
  /** Caching hints on cacheable results. Default: no caching (ttlMs 0, private). */
  cache?: CacheHint;
  /** Versions named in server/discover and -32022. Default: the dual-era list (modern first). */
  supportedVersions?: readonly string[];
  /** Seals requestState; default a fresh HMAC key for this server. */
  sealer?: RequestStateSealer;
}

/** Where one request's own messages go (progress, log, listen notifications), and its cancellation. */
export interface ModernContext {
  send(message: JsonRpcMessage): void;
  /** Aborted when the client gives up on the request (a closed HTTP stream, notifications/cancelled). */
  signal?: AbortSignal;
}

export interface ModernOutcome {
  /** null: no response may be sent (the request was cancelled). */
  response: JsonRpcResponse | null;
  /** The HTTP status Streamable HTTP answers with. */
  status: number;
}

type ListKind = 'tools' | 'prompts' | 'resources';
interface Listener {
  filter: Record<string, unknown>;
  send(message: JsonRpcMessage): void;
  /** The server is shutting down: answer the listen request (a graceful end). */
  end(): void;
}

const FILTER_KEY: Record<ListKind, string> = { tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged' };
const NO_CACHE: CacheHint = { ttlMs: 0, cacheScope: 'private' };

export class ModernServer {
  readonly #options: ModernServerOptions;
  readonly #tools = new Map<string, EraTool>();
  readonly #prompts = new Map<string, EraPrompt>();
  readonly #sealer: RequestStateSealer;
  readonly #listeners = new Set<Listener>();

  constructor(options: ModernServerOptions) {
    this.#options = options;
    for (const tool of options.tools ?? []) this.#tools.set(tool.info.name, tool);
    for (const prompt of options.prompts ?? []) this.#prompts.set(prompt.name, prompt);
    this.#sealer = options.sealer ?? createRequestStateSealer();
  }

  get serverInfo(): Implementation {
    return this.#options.serverInfo;
  }

  get supportedVersions(): readonly string[] {
    return this.#options.supportedVersions ?? DUAL_ERA_PROTOCOL_VERSIONS;
  }

  /** The tools this server lists (HTTP reads their x-mcp-header annotations). */
  get tools(): ReadonlyMap<string, EraTool> {
    return this.#tools;
  }

  /** One capability per feature that has something registered (server/discover). */
  get capabilities(): Record<string, unknown> {
    const listChanged = this.#options.listChanged === true;
    const capabilities: Record<string, unknown> = {};
    if (this.#tools.size > 0) capabilities.tools = { listChanged };
    if ((this.#options.resources?.length ?? 0) + (this.#options.resourceTemplates?.length ?? 0) > 0) capabilities.resources = { listChanged };
    if (this.#prompts.size > 0) capabilities.prompts = { listChanged };
    if (this.#options.logging !== false) capabilities.logging = {};
    if (this.#options.complete !== undefined) capabilities.completions = {};
    return capabilities;
  }

  /** Tell every open subscriptions/listen stream that asked for it that a list changed. */
  notifyListChanged(kind: ListKind): void {
    if (this.#options.listChanged !== true) return;
    for (const listener of this.#listeners) {
      if (listener.filter[FILTER_KEY[kind]] === true) listener.send(encodeNotification(`notifications/${kind}/list_changed`, {}));
    }
  }

  /** notifications/resources/updated for every listen stream subscribed to this URI. */
  resourceUpdated(uri: string): void {
    for (const listener of this.#listeners) {
      const uris = listener.filter.resourceSubscriptions;
      if (Array.isArray(uris) && uris.includes(uri)) listener.send(encodeNotification('notifications/resources/updated', { uri }));
    }
  }

  /**
   * Shutdown (stdin closed, HTTP server stopping): every open subscriptions/listen is answered
   * with its result, the spec's graceful end, instead of staying open forever.
   */
  endSubscriptions(): void {
    for (const listener of [...this.#listeners]) listener.end();
  }

  /** One modern request. Never rejects: failures become error responses. */
  async handle(request: JsonRpcRequest, context?: ModernContext): Promise<ModernOutcome> {
    const { id } = request;
    const reading = readEnvelope(request.params);
    if (reading.kind === 'absent') {
      return this.#fail(id, ErrorCode.InvalidParams, 'Invalid params: every 2026-07-28 request carries _meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities', 400);
    }
    if (reading.kind === 'invalid') return this.#fail(id, ErrorCode.InvalidParams, `Invalid params: ${reading.message}`, 400);
    const envelope = reading.envelope;
    if (!MODERN_PROTOCOL_VERSIONS.includes(envelope.protocolVersion)) {
      return this.#fail(id, EraErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', 400, unsupportedVersionData(envelope.protocolVersion, this.supportedVersions));
    }
    try {
      return await this.#dispatch(request, envelope, context);
    } catch (error) {
      return this.#fail(id, ErrorCode.InternalError, error instanceof Error ? error.message : String(error), 500);
    }
  }

  async #dispatch(request: JsonRpcRequest, envelope: RequestEnvelope, context: ModernContext | undefined): Promise<ModernOutcome> {
    const { id } = request;
    const params = isObject(request.params) ? request.params : {};
    const capabilities = this.capabilities;
    const has = (name: string) => capabilities[name] !== undefined;
    switch (request.method) {
      case 'server/discover': {
        const result: Record<string, unknown> = { supportedVersions: [...this.supportedVersions], capabilities, ...this.#cache() };
        if (this.#options.instructions !== undefined) result.instructions = this.#options.instructions;
        return this.#ok(id, result);
      }
      case 'tools/list':
        if (!has('tools')) break;
        return this.#ok(id, { tools: [...this.#tools.values()].map((tool) => tool.info), ...this.#cache() });
      case 'tools/call':
        if (!has('tools')) break;
        return this.#callTool(id, params, envelope, context);
      case 'resources/list':
        if (!has('resources')) break;
        return this.#ok(id, { resources: (this.#options.resources ?? []).map(({ uri, name, description, mimeType }) => clean({ uri, name, description, mimeType })), ...this.#cache() });
      case 'resources/templates/list':
        if (!has('resources')) break;
        return this.#ok(id, {
          resourceTemplates: (this.#options.resourceTemplates ?? []).map(({ uriTemplate, name, description, mimeType }) => clean({ uriTemplate, name, description, mimeType })),
          ...this.#cache(),
        });
      case 'resources/read':
        if (!has('resources')) break;
        return this.#readResource(id, params.uri);
      case 'prompts/list':
        if (!has('prompts')) break;
        return this.#ok(id, { prompts: [...this.#prompts.values()].map(({ name, description, arguments: args }) => clean({ name, description, arguments: args })), ...this.#cache() });
      case 'prompts/get':
        if (!has('prompts')) break;
        return this.#getPrompt(id, params, envelope, context);
      case 'completion/complete':
        if (!has('completions')) break;
        return this.#complete(id, params);
      case 'subscriptions/listen':
        return this.#listen(id, params, context);
    }
    return this.#fail(id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`, 404);
  }

  // ---- tools and prompts (MRTR) ----

  async #callTool(id: JsonRpcId, params: Record<string, unknown>, envelope: RequestEnvelope, context: ModernContext | undefined): Promise<ModernOutcome> {
    if (typeof params.name !== 'string') return this.#fail(id, ErrorCode.InvalidParams, 'tools/call needs params.name (a string)');
    const tool = this.#tools.get(params.name);
    if (tool === undefined) return this.#fail(id, ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) return this.#fail(id, ErrorCode.InvalidParams, 'tools/call params.arguments must be an object');
    const problems = validateArguments(tool.info.inputSchema, args);
    if (problems.length > 0) return this.#ok(id, failure(`Invalid arguments for tool ${tool.info.name}: ${problems.join('; ')}`));

    // A state is bound to this tool AND these arguments: a retry with other arguments cannot reuse it.
    const binding = bindingOf(`tools/call\u0000${tool.info.name}`, args);
    const round = await this.#round(id, params, binding);
    if ('outcome' in round) return round.outcome;
    const eraContext = this.#context(params, envelope, context, round.inputResponses, round.state);
    let output: ToolOutput;
    try {
      output = await tool.run(args, eraContext);
    } catch (error) {
      output = failure(error instanceof Error ? error.message : String(error));
    }
    if (eraContext.signal.aborted) return { response: null, status: 200 };
    if (isInputRequired(output)) return this.#inputRequired(id, output, envelope, binding);
    return this.#ok(id, toCallToolResult(output, tool.info.name));
  }

  async #getPrompt(id: JsonRpcId, params: Record<string, unknown>, envelope: RequestEnvelope, context: ModernContext | undefined): Promise<ModernOutcome> {
    const prompt = typeof params.name === 'string' ? this.#prompts.get(params.name) : undefined;
    if (prompt === undefined) return this.#fail(id, ErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(params.name)}`);
    const given = isObject(params.arguments) ? params.arguments : {};
    const args: Record<string, string> = {};
    for (const [name, value] of Object.entries(given)) if (typeof value === 'string') args[name] = value;
    const missing = (prompt.arguments ?? []).filter((argument) => argument.required === true && args[argument.name] === undefined).map((argument) => argument.name);
    if (missing.length > 0) return this.#fail(id, ErrorCode.InvalidParams, `Missing required arguments for prompt ${prompt.name}: ${missing.join(', ')}`);

    const binding = bindingOf(`prompts/get\u0000${prompt.name}`, args);
    const round = await this.#round(id, params, binding);
    if ('outcome' in round) return round.outcome;
    const output = await prompt.get(args, this.#context(params, envelope, context, round.inputResponses, round.state));
    if (isInputRequired(output)) return this.#inputRequired(id, output, envelope, binding);
    return this.#ok(id, clean({ description: prompt.description, messages: output }));
  }

  /** A retry's inputResponses and requestState, checked; or the error that refuses them. */
  async #round(id: JsonRpcId, params: Record<string, unknown>, binding: () => Promise<string>): Promise<{ inputResponses: InputResponses | undefined; state: string | undefined } | { outcome: ModernOutcome }> {
    let inputResponses: InputResponses | undefined;
    if ('inputResponses' in params) {
      const given = params.inputResponses;
      if (!isObject(given) || !Object.values(given).every(isObject)) {
        return { outcome: this.#fail(id, ErrorCode.InvalidParams, 'Invalid params: inputResponses must map each input request key to its result object') };
      }
      inputResponses = given as InputResponses;
    }
    let state: string | undefined;
    if (params.requestState !== undefined) {
      const opened = typeof params.requestState === 'string' ? await this.#sealer.open(await binding(), params.requestState) : null;
      if (opened === null) return { outcome: this.#fail(id, ErrorCode.InvalidParams, 'Invalid params: requestState failed verification (edited, expired, already used, or minted for another tool or other arguments)') };
      state = opened;
    }
    return { inputResponses, state };
  }

  /** An InputRequiredResult as it leaves: capability-checked, state sealed, stamped. */
  async #inputRequired(id: JsonRpcId, output: InputRequiredResult, envelope: RequestEnvelope, binding: () => Promise<string>): Promise<ModernOutcome> {
    const requests = output.inputRequests ?? {};
    let required: ClientCapabilities = {};
    for (const request of Object.values(requests)) required = { ...required, ...requiredCapabilityOf(request) };
    const missing = missingCapabilities(required, envelope.clientCapabilities);
    if (missing !== undefined) {
      return this.#fail(id, EraErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${Object.keys(missing).join(', ')}`, 400, { requiredCapabilities: missing });
    }
    if (output.inputRequests === undefined && output.requestState === undefined) {
      throw new Error('an InputRequiredResult needs inputRequests or requestState');
    }
    const result: Record<string, unknown> = { resultType: RESULT_TYPE_INPUT_REQUIRED };
    if (output.inputRequests !== undefined) result.inputRequests = output.inputRequests;
    if (output.requestState !== undefined) result.requestState = await this.#sealer.seal(await binding(), output.requestState);
    return this.#ok(id, result);
  }

  #context(params: Record<string, unknown>, envelope: RequestEnvelope, context: ModernContext | undefined, inputResponses: InputResponses | undefined, requestState: string | undefined): EraContext {
    const meta = isObject(params._meta) ? params._meta : {};
    const token = typeof meta.progressToken === 'string' || (typeof meta.progressToken === 'number' && Number.isInteger(meta.progressToken)) ? meta.progressToken : undefined;
    const send = (message: JsonRpcMessage) => context?.send(message);
    const threshold = envelope.logLevel;
    return {
      era: 'modern',
      signal: context?.signal ?? new AbortController().signal,
      progressToken: token,
      clientCapabilities: envelope.clientCapabilities,
      inputResponses,
      requestState,
      progress: (progress, total, message) => {
        if (token !== undefined) send(encodeNotification('notifications/progress', clean({ progressToken: token, progress, total, message })));
      },
      // No logLevel in the request's _meta: no notifications/message at all (logging.mdx).
      log: (level: LogLevel, data, logger) => {
        if (threshold !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold)) send(encodeNotification('notifications/message', clean({ level, logger, data })));
      },
    };
  }

  // ---- resources, completion, subscriptions ----

  async #readResource(id: JsonRpcId, uri: unknown): Promise<ModernOutcome> {
    if (typeof uri !== 'string') return this.#fail(id, ErrorCode.InvalidParams, 'resources/read needs params.uri (a string)');
    const resource = this.#options.resources?.find((candidate) => candidate.uri === uri);
    if (resource !== undefined) return this.#ok(id, { contents: await resource.read(), ...this.#cache() });
    for (const template of this.#options.resourceTemplates ?? []) {
      const variables = matchUriTemplate(template.uriTemplate, uri);
      if (variables !== null) return this.#ok(id, { contents: await template.read(uri, variables), ...this.#cache() });
    }
    // 2026-07-28: -32602 with the URI (the -32002 of earlier revisions is retired).
    return this.#fail(id, ErrorCode.InvalidParams, 'Resource not found', 200, { uri });
  }

  async #complete(id: JsonRpcId, params: Record<string, unknown>): Promise<ModernOutcome> {
    const { ref, argument } = params;
    if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      return this.#fail(id, ErrorCode.InvalidParams, 'completion/complete needs params.ref and params.argument { name, value }');
    }
    const values = (await this.#options.complete?.(ref as never, { name: argument.name, value: argument.value })) ?? [];
    return this.#ok(id, { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } });
  }

  /**
   * subscriptions/listen: the acknowledgement first, then the change notifications the filter asked
   * for, each stamped with the listen request's id; it lasts until the client cancels it (no
   * response) or the server shuts down (the result, stamped with the same id).
   */
  async #listen(id: JsonRpcId, params: Record<string, unknown>, context: ModernContext | undefined): Promise<ModernOutcome> {
    if (!isObject(params.notifications)) return this.#fail(id, ErrorCode.InvalidParams, 'subscriptions/listen needs params.notifications (a filter object)');
    if (context === undefined) return this.#fail(id, ErrorCode.InternalError, 'subscriptions/listen needs a stream to deliver on');
    const listenable = this.#options.listChanged === true;
    const hasResources = this.capabilities.resources !== undefined;
    const filter: Record<string, unknown> = {};
    for (const [kind, key] of Object.entries(FILTER_KEY) as [ListKind, string][]) {
      if (params.notifications[key] === true && listenable && this.capabilities[kind] !== undefined) filter[key] = true;
    }
    const uris = params.notifications.resourceSubscriptions;
    if (Array.isArray(uris) && hasResources) filter.resourceSubscriptions = uris.filter((uri) => typeof uri === 'string');
    const stamp = (message: JsonRpcMessage): JsonRpcMessage => {
      if (!('method' in message)) return message;
      const given = isObject(message.params) ? message.params : {};
      const meta = isObject(given._meta) ? given._meta : {};
      return { ...message, params: { ...given, _meta: { ...meta, [META_SUBSCRIPTION_ID]: id } } };
    };
    context.send(stamp(encodeNotification('notifications/subscriptions/acknowledged', { notifications: filter })));
    let listener: Listener | undefined;
    const ending = await new Promise<'cancelled' | 'ended'>((resolve) => {
      listener = { filter, send: (message) => context.send(stamp(message)), end: () => resolve('ended') };
      this.#listeners.add(listener);
      const signal = context.signal;
      if (signal?.aborted === true) resolve('cancelled');
      else signal?.addEventListener('abort', () => resolve('cancelled'), { once: true });
    });
    if (listener !== undefined) this.#listeners.delete(listener);
    // Cancelled by the client: nothing more is sent. Ended by the server: the graceful result.
    if (ending === 'cancelled') return { response: null, status: 200 };
    return this.#ok(id, { _meta: { [META_SUBSCRIPTION_ID]: id } });
  }

  // ---- answers ----

  #cache(): CacheHint {
    return { ...(this.#options.cache ?? NO_CACHE) };
  }

  #ok(id: JsonRpcId, result: object): ModernOutcome {
    return { response: encodeResult(id, stampResult(result as Record<string, unknown>, this.#options.serverInfo)), status: 200 };
  }

  #fail(id: JsonRpcId, code: number, message: string, status = 200, data?: unknown): ModernOutcome {
    return { response: encodeError(id, code, message, data), status };
  }
}

function toCallToolResult(output: CallToolResult | string, name: string): CallToolResult {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (!isObject(output) || !Array.isArray(output.content)) return failure(`tool ${name} returned neither a string nor a { content: [...] } result`);
  return output;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clean<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/**
 * What a requestState is bound to: the method and name, and the digest of the arguments. Computed
 * only when a state is opened or sealed (the digest is asynchronous; most calls carry no state).
 */
function bindingOf(methodAndName: string, args: unknown): () => Promise<string> {
  let binding: Promise<string> | undefined;
  return () => (binding ??= argumentsDigest(args).then((digest) => `${methodAndName}\u0000${digest}`));
}
