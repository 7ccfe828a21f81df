// The echo tool of the server built with the OFFICIAL SDK, in one place: the Node program
// (server/sdk-echo-server.ts, for the bridge and the WebContainer) and the in-browser SDK worker
// (sdk-echo-worker-core.ts) register exactly this, so "Check my client" meets the same server on
// every host.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const SDK_ECHO_SERVER_INFO = { name: 'sdk-echo-server', version: '1.0.0' } as const;
/** The program's one stderr line at start (stdout belongs to the protocol). */
export const SDK_ECHO_READY_LINE = 'sdk-echo-server: ready on stdio (ndjson)';

export function registerSdkEchoTool(server: McpServer): void {
  server.registerTool(
    'echo',
    {
      description: 'Returns the text it was given, unchanged.',
      inputSchema: { text: z.string().describe('The text to send back.') },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
}
