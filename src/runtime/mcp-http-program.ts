// The Streamable HTTP echo server for the in-browser worker (mcp-http-worker-core.ts, which serves
// it over HTTP/1.1 bytes): built exactly as server/mcp-http.ts builds it for node:http — the same
// echo tools, progress, gate and faults. (server/mcp-http.ts keeps its own copy for now because
// the dual-era branch rewrites it; once merged, both should build the handler here.)

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
