// The project's dual-era client as a command, over Streamable HTTP (a URL) or stdio (a server it
// spawns, speaking newline-delimited JSON as the specification's stdio transport does). Built on
// the reference client code in src/protocol/era/dual-era-client.ts: by default it probes for
// 2026-07-28 and falls back to the handshake era; --era pins one. It connects, lists the tools and
// calls each with example arguments made from its schema, printing what it learns on stdout.
//
//   npm run --silent mcp-client -- [--era=auto|legacy|modern] (URL | -- <server command> [args...])
//
// Exit code 0 when every step succeeded, 1 when one failed (the reason on stderr), 2 for a usage error.

import { DualEraClient, type EraConnection, type EraMode } from '../src/protocol/era/dual-era-client.ts';
import { MODERN_PROTOCOL_VERSION } from '../src/protocol/era/meta.ts';
import { HttpClientTransport } from '../src/protocol/http/client-transport.ts';
import { ModernHttpClientTransport } from '../src/protocol/http/modern-client-transport.ts';
import type { ToolInfo } from '../src/protocol/mcp.ts';
import { mcpResultToText } from '../src/protocol/mcp-result-to-text.ts';
import { acceptWithDefaults } from '../src/protocol/server-requests.ts';
import { ChildProcessTransport } from './child-process-transport.ts';
import { exampleArguments } from './example-arguments.ts';
import { fetchExchange } from './fetch-exchange.ts';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, startLoopbackRedirect, type LoopbackRedirect } from './loopback-redirect.ts';
import { authorizingExchange } from '../src/protocol/auth/authorizing-exchange.ts';
import { MCP_CLIENT_USAGE, parseMcpClientArgs, type ClientEra, type McpClientTarget } from './mcp-client-args.ts';
import { stderrLogger } from './stdio-session.ts';

const log = stderrLogger('[mcp-client]');
const out = (line: string) => void process.stdout.write(`${line}\n`);
/** After stdin closes, how long a stdio server gets to exit by itself before SIGTERM (the spec's shutdown). */
const EXIT_GRACE_MS = 2_000;

const ERA_MODES: Record<ClientEra, EraMode> = { auto: 'auto', legacy: 'legacy', modern: { pin: MODERN_PROTOCOL_VERSION } };

// A server that answers 401 gets the authorization flow (src/protocol/auth): the person signs in in
// their own browser, at the URL printed on stderr, and the browser comes back to a listener on
// 127.0.0.1 (loopback-redirect.ts). The probe waits as long as a sign-in may take.
async function transportsFor(target: McpClientTarget): Promise<{ transports: EraConnection; child?: ChildProcessTransport; signIn?: LoopbackRedirect }> {
  if (target.kind === 'http') {
    const onError = (detail: string) => log(detail);
    const signIn = await startLoopbackRedirect({ announce: (url) => log(`the server asks you to sign in: open this URL in your browser, then come back here:\n${url}`) });
    const exchange = authorizingExchange({
      exchange: fetchExchange,
      endpoint: target.url,
      redirectUri: signIn.redirectUri,
      redirect: (url) => signIn.redirect(url),
      identity: { clientName: 'mcp-playground-client' },
      onAuthorized: (authorization, why) => log(`${why}: ${authorization.server.issuer} gave a token for ${authorization.resource}, scope ${authorization.scope ?? '(none)'}`),
    });
    return {
      transports: {
        kind: 'http',
        modern: new ModernHttpClientTransport({ url: target.url, exchange, onError }),
        legacy: () => new HttpClientTransport({ url: target.url, exchange, onError, listen: false }),
      },
      signIn,
    };
  }
  const child = new ChildProcessTransport(target.command, target.args);
  return { transports: { kind: 'stdio', transport: child, framing: 'ndjson' }, child };
}

function answerElicitation(params: Record<string, unknown>): { action: 'accept'; content: Record<string, unknown> } {
  const examples = exampleArguments({ name: 'elicitation', inputSchema: (params.requestedSchema ?? {}) as Record<string, unknown> } as ToolInfo);
  const answer = acceptWithDefaults(params);
  log(`answered ${String(params.message ?? 'an elicitation')} with ${JSON.stringify({ ...examples, ...answer.content })}`);
  return { action: 'accept', content: { ...examples, ...answer.content } };
}

async function run(era: ClientEra, target: McpClientTarget): Promise<number> {
  const { transports, child, signIn } = await transportsFor(target);
  const client = new DualEraClient(transports, {
    era: ERA_MODES[era],
    ...(signIn ? { probeTimeoutMs: DEFAULT_SIGN_IN_TIMEOUT_MS } : {}),
    clientInfo: { name: 'mcp-playground-client', version: '0.1.0' },
    // Nobody is there to ask: elicitation is accepted with the schema's defaults, and an example
    // value of its type for each required field without one.
    inputHandlers: { 'elicitation/create': answerElicitation },
  });
  let code = 0;
  try {
    const connected = await client.connect();
    const server = connected.serverInfo ? `${connected.serverInfo.name} ${connected.serverInfo.version}` : 'a server that did not name itself';
    out(`connected: ${connected.era} era, protocol ${connected.protocolVersion}, ${server} (${connected.cause})`);
    const tools = await client.listTools();
    out(`tools: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
    for (const tool of tools) {
      const args = exampleArguments(tool);
      const result = await client.callTool(tool.name, args);
      out(`${tool.name} ${JSON.stringify(args)} → ${result.isError === true ? 'tool error' : 'ok'}: ${mcpResultToText(result).replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    client.close();
    if (child) await stopServer(child);
    await signIn?.close();
  }
  return code;
}

/** The stdio shutdown: stdin closed (client.close), a grace to exit, then SIGTERM, then SIGKILL. */
async function stopServer(child: ChildProcessTransport): Promise<void> {
  child.end();
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const exited = await Promise.race([child.closed.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), EXIT_GRACE_MS)))]);
    clearTimeout(timer);
    if (exited) return;
    log(`the server did not exit within ${EXIT_GRACE_MS} ms; sending ${signal}`);
    child.child.kill(signal);
  }
  await child.closed;
}

async function main(): Promise<void> {
  const parsed = parseMcpClientArgs(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(MCP_CLIENT_USAGE);
    return;
  }
  if (parsed.kind === 'usage-error') {
    process.stderr.write(`mcp-client: ${parsed.message}\n\n${MCP_CLIENT_USAGE}`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = await run(parsed.era, parsed.target);
}

void main();
