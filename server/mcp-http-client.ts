// The project's McpClient over Streamable HTTP, as the command the MCP conformance suite runs for
// its client scenarios: it appends the server URL to the command line and names the scenario in
// MCP_CONFORMANCE_SCENARIO.
//
//   npm run --silent mcp-http-client -- [--client-metadata-url=URL] URL
//
// Every scenario gets the same client behaviour: the handshake, then list the tools and call each
// one with arguments made from its input schema. That is what `initialize`, `tools_call`,
// `sse-retry` (whose tool's stream the server closes, so the client must resume it with
// Last-Event-ID after `retry`) and `elicitation-sep1034-client-defaults` (the tool asks the client
// for input; it accepts with the schema's defaults) look for. Exit code 0 when every step succeeded, 1 otherwise
// (details on stderr). A server that answers 401 gets the authorization flow, the headless way
// (server/headless-authorization.ts).

import { McpClient } from '../src/protocol/client.ts';
import { HttpClientTransport, HTTP_CLIENT_FRAMING } from '../src/protocol/http/client-transport.ts';
import { acceptWithDefaults, answerServerRequests } from '../src/protocol/server-requests.ts';
import { fetchExchange } from './fetch-exchange.ts';
import { headlessAuthorization, readConformanceContext } from './headless-authorization.ts';
import { exampleArguments } from './example-arguments.ts';
import { stderrLogger } from './stdio-session.ts';

const log = stderrLogger('[mcp-http-client]');

async function main(): Promise<void> {
  const url = process.argv.slice(2).at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) {
    process.stderr.write('usage: npm run --silent mcp-http-client -- URL\n');
    process.exitCode = 2;
    return;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  // A server that asks for authorization gets it the headless way (nobody is there to sign in).
  const exchange = headlessAuthorization({ exchange: fetchExchange, endpoint: url, clientName: 'mcp-playground-http-client', args: process.argv.slice(2), context: readConformanceContext(), log });
  const transport = new HttpClientTransport({ url, exchange, onError: (detail) => log(detail) });
  // Elicitation is answered by accepting the schema's defaults (no person is there to ask).
  const answering = answerServerRequests(transport, {
    framing: HTTP_CLIENT_FRAMING,
    handlers: { 'elicitation/create': { capability: 'elicitation', handle: acceptWithDefaults } },
  });
  const client = new McpClient(answering, { framing: HTTP_CLIENT_FRAMING, clientInfo: { name: 'mcp-playground-http-client', version: '0.1.0' } });
  try {
    const result = await client.connect();
    log(`connected to ${result.serverInfo.name} ${result.serverInfo.version}, protocol ${result.protocolVersion}, scenario ${scenario || '(none)'}`);
    for (const tool of await client.listTools()) {
      const called = await client.callTool(tool.name, exampleArguments(tool));
      log(`${tool.name}: ${called.isError === true ? 'error' : 'ok'} ${JSON.stringify(called.content).slice(0, 200)}`);
    }
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    client.close();
  }
}

void main();
