// The Streamable HTTP echo server's handler, in one place for every host: server/mcp-http.ts puts
// it behind node:http (bridge, WebContainer, terminal) and the in-browser worker
// (mcp-http-worker-core.ts) serves it over HTTP/1.1 bytes — the same echo tools, progress, gate and
// faults. `tools`: echo, conformance, or features (the live panel's feature demo; handshake era
// only, see below). `era`: dual (the default: both protocol eras on one endpoint), legacy (the handshake-era
// handler alone, as every pre-2026-07-28 server), modern (no sessions at all: initialize refused).

import { toolFailureAsRpcError, type FaultName } from '../protocol/faults.ts';
import type { McpHttpToolSet } from './mcp-http-args.ts';
import { createEchoTools, ECHO_SERVER_INFO, ECHO_SERVER_INSTRUCTIONS } from '../protocol/echo-tools.ts';
import type { HttpHandler, HttpHandlerOptions } from '../protocol/http/server-handler.ts';
import { createDualEraHttpHandler } from '../protocol/http/dual-era-handler.ts';
import { createHttpHandler } from '../protocol/http/server-handler.ts';
import type { ServerChannel } from '../protocol/http/server-session.ts';
import { MODERN_PROTOCOL_VERSIONS } from '../protocol/era/meta.ts';
import type { EchoEra } from './echo-server-args.ts';
import { createEchoModernServer } from '../protocol/era/echo.ts';
import { createEraConformance } from '../protocol/era/conformance-fixtures.ts';
import { createDemoWorld } from '../protocol/features/demo-server.ts';
import { McpServer } from '../protocol/server.ts';
import { withToolProgress } from '../protocol/tool-progress.ts';

export { MCP_HTTP_TOOL_SETS, type McpHttpToolSet } from './mcp-http-args.ts';

/** What server/mcp-http.ts sets from its flags: origins and the session and stream bounds. */
export type McpHttpBounds = Pick<HttpHandlerOptions, 'allowedOrigins' | 'anyLoopbackOrigin' | 'maxSessions' | 'sessionIdleMs' | 'streamIdleMs'>;

export function createMcpHttpHandler(options: { tools: McpHttpToolSet; faults: readonly FaultName[]; era?: EchoEra; bounds?: McpHttpBounds }): HttpHandler {
  const faults = new Set(options.faults);
  const bounds = options.bounds ?? {};
  if (options.tools === 'features') {
    // Every feature it shows is handshake-era: logging/setLevel, resources/subscribe and requests
    // from server to client are gone in 2026-07-28. So one handler, the 2025-11-25 one, whatever the era.
    const world = createDemoWorld();
    return createHttpHandler({ ...bounds, createServer: (channel) => world.createServer(channel), faults: [...options.faults] });
  }
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
  const legacyOptions = { ...bounds, createServer: conformance !== undefined ? (channel: ServerChannel) => conformance.createLegacy(channel) : echoServer, faults: [...options.faults] };
  const era = options.era ?? 'dual';
  if (era === 'legacy') return createHttpHandler(legacyOptions);
  const modernOnly = era === 'modern';
  return createDualEraHttpHandler({
    ...legacyOptions,
    modern:
      conformance?.modern ??
      createEchoModernServer({ serverInfo: ECHO_SERVER_INFO, instructions: ECHO_SERVER_INSTRUCTIONS, tools: createEchoTools(), supportedVersions: modernOnly ? MODERN_PROTOCOL_VERSIONS : undefined }),
    legacy: modernOnly ? 'reject' : 'serve',
  });
}
