// The project's dual-era client (src/protocol/era/dual-era-client.ts) over HTTP, as the command the
// MCP conformance suite runs for its client scenarios: the suite appends the server URL, names the
// scenario in MCP_CONFORMANCE_SCENARIO and passes scenario data in MCP_CONFORMANCE_CONTEXT.
//
//   npx tsx server/mcp-era-client.ts [--era=auto|legacy|2026-07-28] [--client-metadata-url=URL] URL
//
// The era is found the dual-era way by default (probe, then modern or the handshake). Then, the
// same for every scenario: list the tools and call each one — with the arguments the context
// names when it names any, else with arguments made from the schema — then, when the server
// declares them, list and read its resources and list and get its prompts. Elicitation is
// accepted with the schema's defaults (nobody is there to ask). Two scenarios ask for something
// else: `json-schema-2020-12-preservation` wants a tool's inputSchema handed back through its
// `json_schema_echo` tool, to prove nothing was stripped on the way in, and
// `json-schema-ref-no-deref` is only about the listing (its server answers tools/list and nothing
// else; the check is that the client never fetches the network `$ref` it contains).
// Exit code 0 when every step succeeded, 1 otherwise (details on stderr).

import { DualEraClient, type EraMode } from '../src/protocol/era/dual-era-client.ts';
import { HttpClientTransport } from '../src/protocol/http/client-transport.ts';
import { ModernHttpClientTransport } from '../src/protocol/http/modern-client-transport.ts';
import type { ToolInfo } from '../src/protocol/mcp.ts';
import { acceptWithDefaults } from '../src/protocol/server-requests.ts';
import { fetchExchange } from './fetch-exchange.ts';
import { headlessAuthorization, readConformanceContext } from './headless-authorization.ts';
import { exampleArguments } from './example-arguments.ts';
import { stderrLogger } from './stdio-session.ts';

const log = stderrLogger('[mcp-era-client]');
// The probe is the first request, so it is the one a 401 meets: its time includes the whole
// authorization flow (a person signing in, here the headless flow, which on a loaded machine took
// over the default 10 s). So it gets as long as a sign-in may take; a server that is down still
// fails at once (the connection is refused), and one that accepts and never answers, after this.
const SIGN_IN_PROBE_TIMEOUT_MS = 120_000;

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const url = args.at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) {
    process.stderr.write('usage: npx tsx server/mcp-era-client.ts [--era=auto|legacy|VERSION] URL\n');
    process.exitCode = 2;
    return;
  }
  const eraFlag = args.find((arg) => arg.startsWith('--era='))?.slice('--era='.length) ?? 'auto';
  const era: EraMode = eraFlag === 'auto' || eraFlag === 'legacy' ? eraFlag : { pin: eraFlag };
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const context = readConformanceContext() as { toolCalls?: ToolCall[]; client_id?: unknown; client_secret?: unknown };

  // A server that asks for authorization gets it the headless way (nobody is there to sign in).
  const exchange = headlessAuthorization({ exchange: fetchExchange, endpoint: url, clientName: 'mcp-playground-era-client', args, context, log });
  const client = new DualEraClient(
    {
      kind: 'http',
      modern: new ModernHttpClientTransport({ url, exchange, onError: (detail) => log(detail) }),
      legacy: () => new HttpClientTransport({ url, exchange, onError: (detail) => log(detail) }),
    },
    { era, clientInfo: { name: 'mcp-playground-era-client', version: '0.1.0' }, inputHandlers: { 'elicitation/create': acceptWithDefaults }, probeTimeoutMs: SIGN_IN_PROBE_TIMEOUT_MS },
  );
  try {
    const connected = await client.connect();
    log(`scenario ${scenario || '(none)'}: ${connected.era} era, protocol ${connected.protocolVersion} (${connected.cause})`);
    const tools = await client.listTools();
    for (const call of plannedCalls(scenario, tools, context)) {
      const result = await client.callTool(call.name, call.arguments);
      log(`${call.name}: ${result.isError === true ? 'error' : 'ok'} ${JSON.stringify(result.content).slice(0, 200)}`);
    }
    const capabilities = connected.capabilities ?? {};
    if (capabilities.resources !== undefined) {
      const { resources } = (await client.request('resources/list')) as { resources?: { uri: string }[] };
      for (const resource of resources ?? []) await client.request('resources/read', { uri: resource.uri });
    }
    if (capabilities.prompts !== undefined) {
      const { prompts } = (await client.request('prompts/list')) as { prompts?: { name: string; arguments?: { name: string; required?: boolean }[] }[] };
      for (const prompt of prompts ?? []) {
        const promptArgs = Object.fromEntries((prompt.arguments ?? []).filter((arg) => arg.required === true).map((arg) => [arg.name, 'conformance']));
        await client.request('prompts/get', { name: prompt.name, arguments: promptArgs });
      }
    }
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    client.close();
  }
}

/** The tool calls for this run: the context's own list when it has one, else one call per listed tool. */
function plannedCalls(scenario: string, tools: ToolInfo[], context: { toolCalls?: ToolCall[] }): ToolCall[] {
  const listed = new Set(tools.map((tool) => tool.name));
  if (scenario === 'json-schema-ref-no-deref') return [];
  if (context.toolCalls !== undefined) return context.toolCalls.filter((call) => listed.has(call.name));
  if (scenario === 'json-schema-2020-12-preservation') {
    const focal = tools.find((tool) => tool.name !== 'json_schema_echo');
    return focal === undefined ? [] : [{ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } }];
  }
  return tools.map((tool) => ({ name: tool.name, arguments: exampleArguments(tool) }));
}

void main();
