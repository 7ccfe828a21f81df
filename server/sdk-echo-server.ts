// An MCP echo server built with the OFFICIAL TypeScript SDK, not with anything in this project.
// It is "code nobody here wrote": the tests point our client at it, so our client is checked
// against the reference implementation and not only against our own server. Its tool is defined
// once, in src/runtime/sdk-echo-tool.ts, which the in-browser SDK worker registers too.
//
//   node sdk-echo-server.mjs        (speaks newline-delimited JSON on stdio, as the SDK does)

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SDK_ECHO_READY_LINE, SDK_ECHO_SERVER_INFO, registerSdkEchoTool } from '../src/runtime/sdk-echo-tool.ts';

const server = new McpServer({ ...SDK_ECHO_SERVER_INFO });
registerSdkEchoTool(server);

// Logs go to stderr: stdout belongs to the protocol.
process.stderr.write(`${SDK_ECHO_READY_LINE}\n`);
await server.connect(new StdioServerTransport());
