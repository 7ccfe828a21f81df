// The echo server built with the OFFICIAL SDK 2.4.0 (@modelcontextprotocol/server), in one place:
// the Node program (server/sdk2-echo-server.ts) registers exactly this, so "Check my client" can
// meet an SDK 2.x server too — one that serves both eras (serveStdio's default) or, with
// --era=modern, 2026-07-28 only (a handshake-era client gets -32022 there).

import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export const SDK2_ECHO_SERVER_INFO = { name: 'sdk2-echo-server', version: '2.4.0' } as const;
/** The program's one stderr line at start (stdout belongs to the protocol). */
export const SDK2_ECHO_READY_LINE = 'sdk2-echo-server: ready on stdio (ndjson)';

export function createSdk2EchoServer(): McpServer {
  const server = new McpServer({ ...SDK2_ECHO_SERVER_INFO }, { capabilities: { tools: {} } });
  server.registerTool(
    'echo',
    { description: 'Returns the text it was given, unchanged.', inputSchema: z.object({ text: z.string().describe('The text to send back.') }), annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}
