// The echo server over Streamable HTTP, dual-era: the pure handler of src/protocol/http behind node:http,
// on the loopback interface only (a local server must not be reachable from the network, and the
// handler refuses any Host but its loopback names: DNS-rebinding protection).
//
//   npm run --silent mcp-http -- [--port=N] [--tools=echo|conformance|features] [--fault=NAME]...
//
// The stdio echo server's faults where they apply over HTTP: no-gate, error-as-rpc-error,
// reply-to-notification (200 with the orphan reply instead of 202), split-writes (bodies leave
// in 1-7 byte pieces) and close-streams-early (each connection of a request's event stream ends
// once written, after `retry`, so the client must poll); stdout-log and char-length have nothing
// to act on here.
// --tools=conformance serves the fixture set the official conformance suite expects (every server
// feature: resources, prompts, logging, progress, sampling, elicitation, completion).
// --tools=features serves the live panel's feature demo (src/protocol/features/demo-server.ts), in
// the handshake era only (what it shows was removed in 2026-07-28).
// Both eras on one endpoint (src/protocol/http/dual-era-handler.ts): initialize opens a
// handshake-era session as before; a request whose _meta claims 2026-07-28 is served statelessly.
// The faults act on the handshake era only.
// Prints the endpoint URL on stdout once it listens; logs go to stderr. --port=0 (the default)
// takes any free port.
//
// Bounds (issue 22), so a page or a script cannot grow it without end: at most --max-sessions
// sessions (default 1000; initialize beyond it ends the least recently used one), a session
// nothing named or listened to for --session-idle-ms ends (default 10 min), a stream connection
// that carried nothing for --stream-idle-ms closes (default 5 min; the stream stays resumable).
// Origins: a browser request must come from this server's own origin (http://127.0.0.1:PORT,
// localhost or [::1] on the same port) or one named by --allow-origin (repeatable; the bridge
// passes the page's own origin); --allow-loopback-origins accepts any http(s) origin on a loopback
// name, whatever its port (the WebContainer host, whose loopback no other page can reach).
// --auth=ISSUER makes it a protected resource (MCP authorization): it serves its Protected Resource
// Metadata naming that authorization server, and every request needs a JWT access token that
// server signed for this endpoint (src/protocol/auth/protected-resource.ts, server/jwt-access-token.ts);
// tools need `tools:read`, a destructive one `tools:write` as well (a 403 that calls for step-up).
// The token stops here: the echo server never sees it. Pair it with `npm run auth-server`.
// --auth=self serves that authorization server itself, on the same origin (the issuer is
// http://127.0.0.1:PORT, the MCP endpoint /mcp): one port, which the bridge's relay reaches, and a
// consent form the page that --allow-origin names may post for the person it plays.

import { createServer } from 'node:http';
import { FAULT_NAMES, isFaultName, type FaultName } from '../src/protocol/faults.ts';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, DEFAULT_STREAM_IDLE_MS } from '../src/protocol/http/server-handler.ts';
import { createMcpHttpHandler, MCP_HTTP_TOOL_SETS } from '../src/runtime/mcp-http-program.ts';
import { discoverAuthorizationServer } from '../src/protocol/auth/discovery.ts';
import { protectResource } from '../src/protocol/auth/protected-resource.ts';
import { READ_SCOPE, scopesForToolCall, TOOL_SCOPES } from '../src/protocol/auth/tool-scopes.ts';
import { createEchoTools } from '../src/protocol/echo-tools.ts';
import type { HttpHandler } from '../src/protocol/http/server-handler.ts';
import { fetchExchange } from './fetch-exchange.ts';
import { nodeListener } from './http-node-adapter.ts';
import { jwtAccessTokenVerifier } from './jwt-access-token.ts';
import { stderrLogger } from './stdio-session.ts';

const PROGRAM = 'mcp-http';
const TOOL_SETS = MCP_HTTP_TOOL_SETS;
const log = stderrLogger(`[${PROGRAM}]`);

interface Options {
  port: number;
  tools: (typeof TOOL_SETS)[number];
  faults: FaultName[];
  era: (typeof ERAS)[number];
  maxSessions: number;
  sessionIdleMs: number;
  streamIdleMs: number;
  allowOrigins: string[];
  allowLoopbackOrigins: boolean;
  /** The authorization server's issuer, when the server is protected. */
  auth?: string;
}
const ERAS = ['dual', 'legacy', 'modern'] as const;

/** The echo server's faults that mean nothing over HTTP: there is no stdout and no Content-Length frame. */
const STDIO_ONLY_FAULTS: readonly FaultName[] = ['stdout-log', 'char-length'];

function usage(): string {
  const faults = FAULT_NAMES.filter((name) => !STDIO_ONLY_FAULTS.includes(name));
  return `usage: npm run --silent ${PROGRAM} -- [--port=N] [--tools=${TOOL_SETS.join('|')}] [--era=${ERAS.join('|')}] [--fault=${faults.join('|')}]...
    [--max-sessions=N] [--session-idle-ms=N] [--stream-idle-ms=N] [--allow-origin=ORIGIN]... [--allow-loopback-origins] [--auth=ISSUER]

The echo server (or the conformance fixtures) over MCP Streamable HTTP on http://127.0.0.1:PORT/mcp (loopback only).
At most --max-sessions sessions (default ${DEFAULT_MAX_SESSIONS}, least recently used ended first); idle sessions end after
--session-idle-ms (default ${DEFAULT_SESSION_IDLE_MS}), idle stream connections close after --stream-idle-ms (default ${DEFAULT_STREAM_IDLE_MS}).
Browsers: only this server's own origin, and each --allow-origin; --allow-loopback-origins admits any loopback origin.
--auth=ISSUER: every request needs an access token from that authorization server (npm run auth-server), for this endpoint;
--auth=self: the same, with that authorization server served here too, on this server's own origin.
`;
}

export function parseArgs(argv: readonly string[]): Options | { error: string } | 'help' {
  const options: Options = {
    port: 0,
    tools: 'echo',
    faults: [],
    era: 'dual',
    maxSessions: DEFAULT_MAX_SESSIONS,
    sessionIdleMs: DEFAULT_SESSION_IDLE_MS,
    streamIdleMs: DEFAULT_STREAM_IDLE_MS,
    allowOrigins: [],
    allowLoopbackOrigins: false,
  };
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return 'help';
    const [flag, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--port' && value !== undefined && /^\d{1,5}$/.test(value) && Number(value) <= 65535) options.port = Number(value);
    else if (flag === '--era' && (ERAS as readonly string[]).includes(value ?? '')) options.era = value as Options['era'];
    else if (flag === '--tools' && (TOOL_SETS as readonly string[]).includes(value ?? '')) options.tools = value as Options['tools'];
    else if (flag === '--max-sessions' && isPositiveInteger(value)) options.maxSessions = Number(value);
    else if (flag === '--session-idle-ms' && isPositiveInteger(value)) options.sessionIdleMs = Number(value);
    else if (flag === '--stream-idle-ms' && isPositiveInteger(value)) options.streamIdleMs = Number(value);
    else if (flag === '--allow-origin' && value !== undefined && isOrigin(value)) options.allowOrigins.push(value);
    else if (arg === '--allow-loopback-origins') options.allowLoopbackOrigins = true;
    else if (flag === '--auth' && value !== undefined && (value === 'self' || isOrigin(value))) options.auth = value;
    else if (flag === '--fault' && value !== undefined && isFaultName(value)) {
      if (STDIO_ONLY_FAULTS.includes(value)) return { error: `--fault=${value} has no effect over HTTP (no stdout, no Content-Length frames)` };
      options.faults.push(value);
    }
    else return { error: `bad option: ${arg}` };
  }
  if (options.tools === 'features' && options.era !== 'dual') return { error: '--tools=features serves the handshake era only; leave --era out' };
  if (options.auth !== undefined && options.tools !== 'echo') return { error: '--auth protects the echo tools only; leave --tools out' };
  return options;
}

function isPositiveInteger(value: string | undefined): boolean {
  return value !== undefined && /^[1-9][0-9]{0,9}$/.test(value);
}

/** An origin exactly as a browser sends it: scheme, host, port when not the default; nothing more. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** This server's own origins: the loopback names on the port it listens on. */
function ownOrigins(port: number): string[] {
  return ['127.0.0.1', 'localhost', '[::1]'].map((host) => `http://${host}:${port}`);
}

/** The resource server's checks around the echo handler: tokens of `issuer`, signed with the keys at `jwksUri`, for this endpoint. */
function protection(inner: HttpHandler, issuer: string, jwksUri: string, port: number) {
  const resource = `http://127.0.0.1:${port}/mcp`;
  const handler = protectResource(inner, {
    resource,
    authorizationServers: [issuer],
    scopesSupported: TOOL_SCOPES,
    requiredScopes: [READ_SCOPE],
    scopesFor: scopesForToolCall(createEchoTools().map((tool) => tool.info)),
    verify: jwtAccessTokenVerifier({ issuer, jwksUri, audience: resource }),
    log,
  });
  log(`protected: tokens from ${issuer} for ${resource}; metadata at ${handler.metadataUrl}`);
  return handler;
}

/** --auth=ISSUER: that server's keys, looked up once, now. */
async function protectWith(inner: HttpHandler, issuer: string, port: number): Promise<HttpHandler> {
  const server = await discoverAuthorizationServer(fetchExchange, issuer);
  if (server.jwksUri === undefined) throw new Error(`${issuer} publishes no jwks_uri: its tokens cannot be checked here`);
  return protection(inner, issuer, server.jwksUri, port);
}

function main(): void {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === 'help') return void process.stdout.write(usage());
  if ('error' in parsed) {
    process.stderr.write(`${PROGRAM}: ${parsed.error}\n\n${usage()}`);
    process.exitCode = 2;
    return;
  }
  const faults = new Set(parsed.faults);
  let handler: ReturnType<typeof createMcpHttpHandler> | null = null;
  // The handler is made once the port is known (its own origins name it); no client knows the
  // port before the URL is printed, so no request arrives before.
  const server = createServer();
  server.listen(parsed.port, '127.0.0.1', () => void listening());
  const listening = async () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : parsed.port;
    // The same handler the in-browser worker serves (src/runtime/mcp-http-program.ts).
    handler = createMcpHttpHandler({
      tools: parsed.tools,
      faults: parsed.faults,
      era: parsed.era,
      bounds: {
        allowedOrigins: [...ownOrigins(port), ...parsed.allowOrigins],
        anyLoopbackOrigin: parsed.allowLoopbackOrigins,
        maxSessions: parsed.maxSessions,
        sessionIdleMs: parsed.sessionIdleMs,
        streamIdleMs: parsed.streamIdleMs,
      },
    });
    const adapterOptions = { log, splitWrites: faults.has('split-writes') ? Math.random : undefined };
    if (parsed.auth === 'self') {
      const issuer = `http://127.0.0.1:${port}`;
      // Loaded only here: the authorization server (oidc-provider, koa) is most of this program's size.
      const { createAuthorizationServer } = await import('./authorization-server.ts');
      const authorization = await createAuthorizationServer({ issuer, trustedOrigins: parsed.allowOrigins, log });
      const protectedHandler = protection(handler, issuer, authorization.jwksUri, port);
      const mcp = nodeListener(protectedHandler, adapterOptions);
      const mcpPaths = new Set(['/mcp', new URL(protectedHandler.metadataUrl).pathname]);
      server.on('request', (request, response) => (mcpPaths.has(new URL(request.url ?? '/', issuer).pathname) ? mcp : authorization.listener)(request, response));
    } else {
      let served: HttpHandler = handler;
      if (parsed.auth !== undefined) {
        try {
          served = await protectWith(handler, parsed.auth, port);
        } catch (error) {
          process.stderr.write(`${PROGRAM}: --auth=${parsed.auth}: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exitCode = 1;
          return stop();
        }
      }
      server.on('request', nodeListener(served, adapterOptions));
    }
    process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
    log(`pid ${process.pid}, tools ${parsed.tools}, era ${parsed.era}, faults: ${parsed.faults.length > 0 ? parsed.faults.join(', ') : 'none'}, listening on 127.0.0.1:${port}`);
  };
  const stop = () => {
    log('stopping');
    handler?.closeAll();
    server.close();
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main();
