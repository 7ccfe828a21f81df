// The dual-era server as a stdio server session builds it (server-session.ts's ServerFactory):
// the reference McpServer for the handshake era, made on this process's first claim-less
// message, and the echo tools' modern half for requests that claim 2026-07-28.

import { McpServer, type McpServerOptions } from '../server.ts';
import type { ServerFactory, SessionServer } from '../server-session.ts';
import { DualEraServer } from './dual-era-server.ts';
import { createEchoModernServer } from './echo.ts';
import { MODERN_PROTOCOL_VERSIONS } from './meta.ts';

export function createDualEraSessionServer(options: McpServerOptions): SessionServer {
  return new DualEraServer({
    modern: createEchoModernServer({ serverInfo: options.serverInfo, instructions: options.instructions, tools: options.tools }),
    createLegacy: () => new McpServer(options),
  });
}

/** 2026-07-28 only: initialize and every claim-less request get -32022 with the supported versions. */
export function createModernOnlySessionServer(options: McpServerOptions): SessionServer {
  return new DualEraServer({
    modern: createEchoModernServer({ serverInfo: options.serverInfo, instructions: options.instructions, tools: options.tools, supportedVersions: MODERN_PROTOCOL_VERSIONS }),
  });
}

/** The session server for an era: `legacy` is the exercise-4 reference McpServer alone, as before 2026-07-28. */
export function sessionServerForEra(era: 'dual' | 'legacy' | 'modern'): ServerFactory {
  if (era === 'legacy') return (options) => new McpServer(options);
  return era === 'modern' ? createModernOnlySessionServer : createDualEraSessionServer;
}
