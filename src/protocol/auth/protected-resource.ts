// The resource server's half of MCP authorization, around any Streamable HTTP handler: it serves
// its Protected Resource Metadata (RFC 9728), answers a request without a usable token with 401 and
// a challenge that says where to look (`resource_metadata`) and what to ask for (`scope`), a token
// that lacks a scope the request needs with 403 `insufficient_scope` (RFC 6750 §3.1), and hands
// the inner handler the request without its Authorization header: the token is for this server
// only and goes no further (MCP's rule against token passthrough). How a token is checked
// (signature, issuer, audience, expiry) is injected: this layer has no keys and no clock.

import type { HttpHandler } from '../http/server-handler.ts';
import { isAllowedHost, LOOPBACK_HOSTS } from '../http/request-checks.ts';
import { headerValue, type HttpRequest, type HttpResponse } from '../http/types.ts';
import { formatChallenge } from './www-authenticate.ts';

/** What the resource server needs from a checked token. */
export interface AccessToken {
  scopes: readonly string[];
  /** Who the token speaks for and which client holds it, for the log; optional. */
  subject?: string;
  clientId?: string;
}

/** A token's verdict: good, or why not (shown to the client as `error_description`). */
export type TokenCheck = { ok: true; token: AccessToken } | { ok: false; description: string };

export interface ProtectedResourceOptions {
  /** This server's canonical URI (RFC 8707): the audience a token must name, e.g. http://127.0.0.1:8080/mcp. */
  resource: string;
  /** Issuers whose tokens this server takes, in the metadata's `authorization_servers`. */
  authorizationServers: readonly string[];
  /** Every scope this server knows, published in the metadata. */
  scopesSupported: readonly string[];
  /** Scopes every request needs; also the `scope` of a 401's challenge. */
  requiredScopes: readonly string[];
  /** Scopes a particular request needs beyond those, from its JSON-RPC body (e.g. a destructive tool). */
  scopesFor?(message: unknown): readonly string[];
  /** Checks signature, issuer, audience (= `resource`) and expiry. */
  verify(token: string): Promise<TokenCheck>;
  /** Host names served; default the loopback names. */
  allowedHosts?: readonly string[];
  /** Told about each refusal and each accepted token, never the token itself. */
  log?(line: string): void;
}

export interface ProtectedResource extends HttpHandler {
  /** Where the metadata is served: RFC 9728's well-known path with the resource's path appended. */
  readonly metadataUrl: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** RFC 9728 §3.1: the well-known prefix goes between the host and the resource's path. */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}`;
}

export function protectResource(inner: HttpHandler, options: ProtectedResourceOptions): ProtectedResource {
  const metadataUrl = protectedResourceMetadataUrl(options.resource);
  const metadataPath = new URL(metadataUrl).pathname;
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const log = options.log ?? (() => {});
  const metadata = jsonBytes({
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    scopes_supported: options.scopesSupported,
    bearer_methods_supported: ['header'],
  });

  const challenge = (params: Record<string, string>) =>
    formatChallenge({ scheme: 'Bearer', params: { resource_metadata: metadataUrl, ...params } });

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const path = request.path.split('?')[0];
    if (path === metadataPath) {
      if (!isAllowedHost(request.headers, allowedHosts)) return plain(403, 'Forbidden: Host is not a name of this server');
      if (request.method.toUpperCase() !== 'GET') return plain(405, 'Method not allowed', { allow: 'GET' });
      // Public metadata, readable by a page on any origin (as RFC 9728 expects of a browser client).
      return { status: 200, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' }, body: { type: 'bytes', bytes: metadata } };
    }
    if (path !== new URL(options.resource).pathname) return inner.handle(request);

    const required = options.requiredScopes.join(' ');
    const bearer = bearerToken(headerValue(request.headers, 'authorization'));
    if (bearer === null) {
      log(`401: ${request.method} without a Bearer token`);
      return refusal(401, challenge(required === '' ? {} : { scope: required }), 'Unauthorized: this server needs an access token');
    }
    const check = await options.verify(bearer);
    if (!check.ok) {
      log(`401: token refused (${check.description})`);
      return refusal(401, challenge({ error: 'invalid_token', error_description: check.description, ...(required === '' ? {} : { scope: required }) }), `Unauthorized: ${check.description}`);
    }
    const needed = [...options.requiredScopes, ...(options.scopesFor?.(jsonBody(request.body)) ?? [])];
    const missing = needed.filter((scope) => !check.token.scopes.includes(scope));
    if (missing.length > 0) {
      // The scope to ask for is all this request needs together with what the token has: a client
      // that asks for it keeps what it could already do (MCP's step-up).
      const wanted = [...new Set([...check.token.scopes, ...needed])].join(' ');
      log(`403: token lacks ${missing.join(' ')}`);
      return refusal(
        403,
        challenge({ error: 'insufficient_scope', scope: wanted, error_description: `this request needs ${missing.join(' ')}` }),
        `Forbidden: the token lacks ${missing.join(' ')}`,
      );
    }
    log(`accepted a token${check.token.clientId === undefined ? '' : ` of client ${check.token.clientId}`} with ${check.token.scopes.join(' ') || 'no scope'}`);
    const headers = { ...request.headers };
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
    return inner.handle({ ...request, headers });
  }

  return {
    handle,
    metadataUrl,
    get sessionCount() {
      return inner.sessionCount;
    },
    closeAll: () => inner.closeAll(),
  };
}

/** RFC 6750 §2.1: `Bearer` (any case), one space, a token68. Anything else is no token. */
export function bearerToken(header: string | undefined): string | null {
  const match = header === undefined ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

function jsonBody(body: Uint8Array | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined; // the inner handler answers a parse error as the transport says
  }
}

function refusal(status: 401 | 403, challengeHeader: string, message: string): HttpResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', 'www-authenticate': challengeHeader },
    body: { type: 'bytes', bytes: jsonBytes({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }) },
  };
}

function plain(status: number, message: string, extra: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': 'application/json', ...extra }, body: { type: 'bytes', bytes: jsonBytes({ error: message }) } };
}

function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
