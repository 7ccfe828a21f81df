// The authorization server for MCP servers on this machine (authorization-server.ts: oidc-provider
// configured as MCP asks), on the loopback interface only.
//
//   npm run --silent auth-server -- [--port=N] [--client-id=ID --redirect-uri=URI [--client-secret=S]]
//
// Prints the issuer (http://127.0.0.1:PORT) on stdout once it listens; logs go to stderr. Clients
// identify by a Client ID Metadata Document, by registering (POST /reg), or as the one client
// --client-id pre-registers. Pair it with an MCP server: npm run mcp-http -- --auth=ISSUER.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientMetadata } from 'oidc-provider';
import { createAuthorizationServer } from './authorization-server.ts';
import { stderrLogger } from './stdio-session.ts';

const PROGRAM = 'auth-server';
const log = stderrLogger(`[${PROGRAM}]`);

interface Options {
  port: number;
  client?: ClientMetadata;
}

const USAGE = `usage: npm run --silent ${PROGRAM} -- [--port=N] [--client-id=ID --redirect-uri=URI [--client-secret=SECRET]]

An OAuth 2.1 authorization server (oidc-provider) for MCP servers on this machine, on http://127.0.0.1:PORT.
PKCE (S256) required; tokens name one loopback MCP server (RFC 8707) as a signed JWT; clients use a
Client ID Metadata Document, Dynamic Client Registration, or the one --client-id given here.
`;

export function parseArgs(argv: readonly string[]): Options | { error: string } | 'help' {
  const options: Options = { port: 0 };
  const client: Record<string, string> = {};
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return 'help';
    const [flag, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--port' && value !== undefined && /^\d{1,5}$/.test(value) && Number(value) <= 65535) options.port = Number(value);
    else if ((flag === '--client-id' || flag === '--client-secret') && value !== undefined && value !== '') client[flag] = value;
    else if (flag === '--redirect-uri' && value !== undefined && URL.canParse(value)) client[flag] = value;
    else return { error: `bad option: ${arg}` };
  }
  if (Object.keys(client).length > 0) {
    const id = client['--client-id'];
    const redirect = client['--redirect-uri'];
    if (id === undefined || redirect === undefined) return { error: '--client-id and --redirect-uri go together' };
    const secret = client['--client-secret'];
    options.client = {
      client_id: id,
      redirect_uris: [redirect],
      // A loopback redirect is a native app's (RFC 8252): its port may differ at each sign-in.
      application_type: new URL(redirect).protocol === 'http:' ? 'native' : 'web',
      ...(secret === undefined ? { token_endpoint_auth_method: 'none' } : { client_secret: secret, token_endpoint_auth_method: 'client_secret_basic' }),
    };
  }
  return options;
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === 'help') return void process.stdout.write(USAGE);
  if ('error' in parsed) {
    process.stderr.write(`${PROGRAM}: ${parsed.error}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(parsed.port, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const authorization = await createAuthorizationServer({ issuer, clients: parsed.client === undefined ? [] : [parsed.client], log });
  server.on('request', authorization.listener);
  process.stdout.write(`${issuer}\n`);
  log(`pid ${process.pid}, issuer ${issuer}${parsed.client === undefined ? '' : `, client ${parsed.client.client_id}`}`);
  const stop = () => {
    log('stopping');
    server.close();
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${PROGRAM}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
