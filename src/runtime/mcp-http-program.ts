// The Streamable HTTP echo server as one definition two hosts share: the Node program
// (server/mcp-http.ts, which the bridge and the WebContainer run behind node:http) and the
// in-browser worker (mcp-http-worker-core.ts, which serves the same handler over HTTP/1.1 bytes).
// Pure, so the worker can load it; the arguments are the only thing the bridge ever passes.

import { toolFailureAsRpcError, type FaultName } from '../protocol/faults.ts';
import type { McpHttpToolSet } from './mcp-http-args.ts';
import { createEchoTools, ECHO_SERVER_INFO, ECHO_SERVER_INSTRUCTIONS } from '../protocol/echo-tools.ts';
import { createHttpHandler, type HttpHandler } from '../protocol/http/server-handler.ts';
import { McpServer } from '../protocol/server.ts';
import { withToolProgress } from '../protocol/tool-progress.ts';
import { createConformanceServer } from '../protocol/features/conformance-fixtures.ts';

export { MCP_HTTP_TOOL_SETS, type McpHttpToolSet } from './mcp-http-args.ts';

export function createMcpHttpHandler(options: { tools: McpHttpToolSet; faults: readonly FaultName[] }): HttpHandler {
  const faults = new Set(options.faults);
  const echoServer = () => {
    const server = withToolProgress(
      new McpServer({ serverInfo: ECHO_SERVER_INFO, instructions: ECHO_SERVER_INSTRUCTIONS, tools: createEchoTools(), requireInitialized: !faults.has('no-gate') }),
    );
    if (!faults.has('error-as-rpc-error')) return server;
    return {
      handle: async (value: unknown, context?: Parameters<typeof server.handle>[1]) => {
        const response = await server.handle(value, context);
        return response === null ? null : toolFailureAsRpcError(response);
      },
    };
  };
  return createHttpHandler({
    createServer: options.tools === 'conformance' ? (channel) => createConformanceServer(channel) : echoServer,
    faults: [...options.faults],
  });
}
