// Authorization for the project's client programs when no person is there to sign in: the MCP
// conformance suite's client scenarios, and CI. Its authorization servers approve at once and
// answer the authorization request with a 302 to the redirect URI; this asks the authorization
// endpoint itself, does not follow that redirect, and hands the flow the Location — what a
// browser would have loaded. An authorization server that wants a person (a login or consent
// page: a 200) gets a clear error saying so instead.
//
// The client's identity comes from its command line and the suite's MCP_CONFORMANCE_CONTEXT:
// pre-registered credentials when the context has them, a Client ID Metadata Document URL when
// --client-metadata-url names one, else Dynamic Client Registration.

import { authorizingExchange, type AuthorizingExchange } from '../src/protocol/auth/authorizing-exchange.ts';
import type { HttpExchange } from '../src/protocol/http/types.ts';

/** Never listened on: the authorization server's redirect is read, not followed. */
export const HEADLESS_REDIRECT_URI = 'http://127.0.0.1:8976/callback';

export async function followRedirectHeadless(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) {
    throw new Error(`the authorization endpoint answered ${response.status} without a redirect: it wants a person to sign in, and this client has nobody to ask`);
  }
  return new URL(location, url).href;
}

export interface HeadlessAuthorizationOptions {
  exchange: HttpExchange;
  /** The MCP endpoint. */
  endpoint: string;
  clientName: string;
  /** The program's arguments (--client-metadata-url=URL) and the suite's context. */
  args: readonly string[];
  context: { client_id?: unknown; client_secret?: unknown };
  log(line: string): void;
}

export function headlessAuthorization(options: HeadlessAuthorizationOptions): AuthorizingExchange {
  const { context } = options;
  const metadataDocumentUrl = options.args.find((arg) => arg.startsWith('--client-metadata-url='))?.slice('--client-metadata-url='.length);
  const preRegistered =
    typeof context.client_id === 'string'
      ? { clientId: context.client_id, ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}) }
      : undefined;
  return authorizingExchange({
    exchange: options.exchange,
    endpoint: options.endpoint,
    redirectUri: HEADLESS_REDIRECT_URI,
    redirect: followRedirectHeadless,
    identity: {
      clientName: options.clientName,
      ...(preRegistered === undefined ? {} : { preRegistered }),
      ...(metadataDocumentUrl === undefined ? {} : { metadataDocumentUrl }),
    },
    onAuthorized: (authorization, why) =>
      options.log(
        `${why}: ${authorization.client.how} client ${authorization.client.clientId} (${authorization.client.authMethod}), issuer ${authorization.server.issuer}, resource ${authorization.resource}, scope ${authorization.scope ?? '(none)'}`,
      ),
  });
}

/** The suite's MCP_CONFORMANCE_CONTEXT (scenario data: tool calls, pre-registered credentials), or {}. */
export function readConformanceContext(): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
