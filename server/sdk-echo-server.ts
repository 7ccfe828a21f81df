// An MCP echo server built with the OFFICIAL TypeScript SDK, not with anything in this project.
// It is "code nobody here wrote": the tests point our client at it, so our client is checked
// against the reference implementation and not only against our own server.
//
//   node sdk-echo-server.mjs        (speaks newline-delimited JSON on stdio, as the SDK does)

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'sdk-echo-server', version: '1.0.0' });

server.registerTool(
  'echo',
  {
    description: 'Returns the text it was given, unchanged.',
    inputSchema: { text: z.string().describe('The text to send back.') },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);

// Logs go to stderr: stdout belongs to the protocol.
process.stderr.write('sdk-echo-server: ready on stdio (ndjson)\n');
await server.connect(new StdioServerTransport());
