// The Streamable HTTP echo server for the in-browser worker (mcp-http-worker-core.ts, which serves
// it over HTTP/1.1 bytes): built exactly as server/mcp-http.ts builds it for node:http by default
// (--era=dual) — the same echo tools, progress, gate and faults, both protocol eras on one
// endpoint. (server/mcp-http.ts keeps its own copy, with its --era and --tools variants; this is
// its default, which is all the page starts.)

import { toolFailureAsRpcError, type FaultName } from '../protocol/faults.ts';
import type { McpHttpToolSet } from './mcp-http-args.ts';
import { createEchoTools, ECHO_SERVER_INFO, ECHO_SERVER_INSTRUCTIONS } from '../protocol/echo-tools.ts';
import type { HttpHandler } from '../protocol/http/server-handler.ts';
import { createDualEraHttpHandler } from '../protocol/http/dual-era-handler.ts';
import { createEchoModernServer } from '../protocol/era/echo.ts';
import { createEraConformance } from '../protocol/era/conformance-fixtures.ts';
import { McpServer } from '../protocol/server.ts';
import { withToolProgress } from '../protocol/tool-progress.ts';

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
  const conformance = options.tools === 'conformance' ? createEraConformance() : undefined;
  return createDualEraHttpHandler({
    createServer: conformance !== undefined ? (channel) => conformance.createLegacy(channel) : echoServer,
    faults: [...options.faults],
    modern: conformance?.modern ?? createEchoModernServer({ serverInfo: ECHO_SERVER_INFO, instructions: ECHO_SERVER_INSTRUCTIONS, tools: createEchoTools() }),
  });
}
