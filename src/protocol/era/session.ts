// The dual-era server as a stdio server session builds it (server-session.ts's ServerFactory):
// the reference McpServer for the handshake era, made on this process's first claim-less
// message, and the echo tools' modern half for requests that claim 2026-07-28.

import { McpServer, type McpServerOptions } from '../server.ts';
import type { SessionServer } from '../server-session.ts';
import { DualEraServer } from './dual-era-server.ts';
import { createEchoModernServer } from './echo.ts';

export function createDualEraSessionServer(options: McpServerOptions): SessionServer {
  return new DualEraServer({
    modern: createEchoModernServer({ serverInfo: options.serverInfo, instructions: options.instructions, tools: options.tools }),
    createLegacy: () => new McpServer(options),
  });
}
