// A second correct solution to exercise 4, in another style than the reference: a table of method
// handlers looked up by name, the gate as a table of what each phase serves, plain object
// literals instead of the codec's encode helpers, and capabilities.tools left empty.
// second-solutions.test.ts requires the spec to pass on it.

import { validateMessage, type JsonRpcId, type JsonRpcResponse } from '@protocol/jsonrpc';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type Implementation, type ToolInfo } from '@protocol/mcp';
import { validateArguments } from '@protocol/validate-arguments';

export interface ServerTool {
  info: ToolInfo;
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult | string> | CallToolResult | string;
}

export interface McpServerOptions {
  serverInfo: Implementation;
  tools: readonly ServerTool[];
  requireInitialized?: boolean;
}

export type ServerPhase = 'awaiting-initialize' | 'awaiting-initialized' | 'ready';

type Params = Record<string, unknown> | undefined;
type Handler = (id: JsonRpcId, params: Params) => JsonRpcResponse | Promise<JsonRpcResponse>;

const ok = (id: JsonRpcId, result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, result }) as JsonRpcResponse;
// An id that could not be read is left out, never written as null (the lesson: MCP ids are strings or integers).
const fail = (id: JsonRpcId | null, code: number, message: string): JsonRpcResponse =>
  (id === null ? { jsonrpc: '2.0', error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message } }) as JsonRpcResponse;
const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

export class McpServer {
  phase: ServerPhase = 'awaiting-initialize';
  private readonly tools: Record<string, ServerTool> = {};
  private readonly handlers: Record<string, Handler> = {
    initialize: (id, params) => {
      if (this.phase !== 'awaiting-initialize') return fail(id, -32600, 'initialize may come only once');
      const asked = params?.protocolVersion;
      const protocolVersion = typeof asked === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      this.phase = 'awaiting-initialized';
      return ok(id, { protocolVersion, capabilities: { tools: {} }, serverInfo: this.options.serverInfo });
    },
    ping: (id) => ok(id, {}),
    'tools/list': (id) => ok(id, { tools: Object.values(this.tools).map((tool) => tool.info) }),
    'tools/call': async (id, params) => {
      const name = params?.name;
      if (typeof name !== 'string') return fail(id, -32602, 'tools/call needs a tool name');
      const tool = Object.hasOwn(this.tools, name) ? this.tools[name] : undefined;
      if (!tool) return fail(id, -32602, `no tool called ${name}`);
      const args = (params?.arguments ?? {}) as Record<string, unknown>;
      const problems = validateArguments(tool.info.inputSchema, args);
      if (problems.length > 0) return ok(id, failure(`bad arguments: ${problems.join(', ')}`));
      try {
        const output = await tool.run(args);
        return ok(id, typeof output === 'string' ? { content: [{ type: 'text', text: output }] } : output);
      } catch (error) {
        return ok(id, failure(error instanceof Error ? error.message : String(error)));
      }
    },
  };

  constructor(private readonly options: McpServerOptions) {
    for (const tool of options.tools) this.tools[tool.info.name] = tool;
  }

  /** Which methods each phase serves; the rest of the known methods get -32600. */
  private serves(method: string): boolean {
    if (method === 'initialize' || method === 'ping') return true;
    if (this.phase === 'awaiting-initialize') return false;
    if (this.phase === 'awaiting-initialized') return this.options.requireInitialized === false || !method.startsWith('tools/');
    return true;
  }

  async handle(value: unknown): Promise<JsonRpcResponse | null> {
    const checked = validateMessage(value);
    if (!checked.ok) return fail(checked.id ?? null, -32600, checked.reason);
    const message = checked.message as { id?: JsonRpcId; method?: string; params?: unknown };
    if (typeof message.method !== 'string') return null; // a response sent to us
    if (!('id' in message) || message.id === undefined) {
      if (message.method === 'notifications/initialized' && this.phase === 'awaiting-initialized') this.phase = 'ready';
      return null;
    }
    const { id, method } = message;
    if (!this.serves(method)) return fail(id, -32600, `${method} is not served yet`);
    const handler = Object.hasOwn(this.handlers, method) ? this.handlers[method] : undefined;
    if (!handler) return fail(id, -32601, `unknown method ${method}`);
    const params = typeof message.params === 'object' && message.params !== null ? (message.params as Params) : undefined;
    return handler(id, params);
  }
}
