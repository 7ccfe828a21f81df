// The playground's authorization server: `oidc-provider` (an OpenID-certified implementation), set
// up the way MCP's authorization asks of one, on the loopback interface. The project writes no
// OAuth here, only the configuration and the one page a person sees (consent-page.ts):
// - PKCE required of every client, S256 only;
// - resource indicators (RFC 8707): a token names one MCP server in `aud`, as a signed JWT
//   (RFC 9068) that server checks against this one's published keys; a loopback MCP endpoint is
//   the only resource it issues for;
// - clients identify as MCP orders: a Client ID Metadata Document (its https URL is the
//   client_id), pre-registration (--client), or Dynamic Client Registration (RFC 7591);
// - a refresh token when the client asks for offline_access;
// - RFC 9207's `iss` on every redirect (mix-up defence), and both metadata documents (RFC 8414
//   and OpenID discovery).
// The person is always the one local learner: a sign-in is a consent, not a password.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type ClientMetadata, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { LOOPBACK_HOSTS } from '../src/protocol/http/request-checks.ts';
import { READ_SCOPE, TOOL_SCOPES } from '../src/protocol/auth/tool-scopes.ts';
import { handleInteraction, INTERACTION_PREFIX } from './consent-page.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 600;
/** The one person this server signs in. */
export const LEARNER_ACCOUNT = 'learner';

export interface AuthorizationServerOptions {
  /** http://127.0.0.1:PORT: the issuer, exactly as the metadata and every token name it. */
  issuer: string;
  /** Pre-registered clients (MCP's second choice, after a Client ID Metadata Document). */
  clients?: ClientMetadata[];
  /**
   * Origins besides its own whose consent form posts it takes: a page the person trusts that plays
   * their browser (mcp-http --auth=self passes the bridge's checked page origin).
   */
  trustedOrigins?: readonly string[];
  /** Told of each grant and refusal, never a token. */
  log?(line: string): void;
}

export interface AuthorizationServer {
  /** The node:http request listener. */
  listener(request: IncomingMessage, response: ServerResponse): void;
  provider: Provider;
  /** Where its signing keys are published (the provider's jwks route). */
  jwksUri: string;
}

/** An http(s) URL on a loopback name, or null. */
function loopbackUrl(text: string): URL | null {
  const url = URL.parse(text);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.includes(url.hostname) ? url : null;
}

/** A resource this server issues tokens for: an http(s) MCP endpoint on a loopback name. */
export function isLoopbackResource(indicator: string): boolean {
  const url = loopbackUrl(indicator);
  return url !== null && url.hash === '' && url.search === '';
}

/**
 * RFC 6749 §3.3: a request that omits `scope` is served with a default. An authorization request
 * for an MCP server without one asks for what every request there needs (tools:read); left empty,
 * the provider would grant nothing and answer access_denied.
 */
function withDefaultScope(request: IncomingMessage): void {
  const url = new URL(request.url ?? '/', 'http://authorization-server');
  if (request.method !== 'GET' || url.pathname !== '/auth' || !url.searchParams.has('resource') || url.searchParams.has('scope')) return;
  url.searchParams.set('scope', READ_SCOPE);
  request.url = `${url.pathname}${url.search}`;
}

function isLoopbackOrigin(origin: string): boolean {
  return loopbackUrl(origin)?.origin === origin;
}

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const log = options.log ?? (() => {});
  const issuerUrl = new URL(options.issuer);
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: randomBytes(8).toString('hex') };

  const configuration: Configuration = {
    clients: options.clients ?? [],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // Only OpenID's own scopes here: tools:read and tools:write are the resource's (getResourceServerInfo)
    // and end up in its token's `scope`, granted per resource on the consent page.
    scopes: ['openid', 'offline_access'],
    claims: { openid: ['sub'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    pkce: { required: () => true },
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // The one signing key is an EC key (an ID token, when openid is asked, is signed with it too).
      id_token_signed_response_alg: 'ES256',
    },
    ttl: { AccessToken: ACCESS_TOKEN_TTL_SECONDS, AuthorizationCode: 60, Interaction: 600, Grant: 3600, Session: 3600, RefreshToken: 24 * 3600 },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        // A code is for one resource; the token request may name it again or not.
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined!,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (!isLoopbackResource(indicator)) throw new errors.InvalidTarget(`this server issues tokens for loopback MCP servers only, not ${indicator}`);
          return {
            scope: TOOL_SCOPES.join(' '),
            audience: indicator,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    // A page may be the client (the playground's authorization scene is): its token request carries
    // an Origin. Taken from this server's own origin, the trusted ones, and pages on a loopback
    // name, as the rest of this loopback-only server; the code is still worthless without the
    // PKCE verifier of the client that asked for it.
    clientBasedCORS: (_ctx, origin) => origin === issuerUrl.origin || (options.trustedOrigins ?? []).includes(origin) || isLoopbackOrigin(origin),
    // Answers the client reads (the token endpoint's JSON errors are the provider's own).
    renderError: (ctx, out) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `${out.error}: ${out.error_description ?? ''}\n`;
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.on('grant.success', (ctx) => log(`tokens issued to client ${ctx.oidc.client?.clientId ?? '?'}`));
  provider.on('grant.error', (_ctx, error) => log(`token request refused: ${error.message}`));
  provider.on('authorization.error', (_ctx, error) => log(`authorization refused: ${error.message}`));
  provider.on('registration_create.success', (_ctx, client) => log(`registered client ${client.clientId}`));

  const hostAllowed = new Set(LOOPBACK_HOSTS.map((name) => `${name}:${issuerUrl.port}`));
  const providerListener = provider.callback();
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    // DNS-rebinding defence, as every server here: only this server's own loopback names.
    if (!hostAllowed.has((request.headers.host ?? '').toLowerCase())) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Forbidden: Host is not a name of this server\n');
      return;
    }
    if (request.url?.startsWith(INTERACTION_PREFIX)) {
      void handleInteraction(provider, request, response, { issuer: options.issuer, trustedOrigins: options.trustedOrigins ?? [], account: LEARNER_ACCOUNT, log });
      return;
    }
    withDefaultScope(request);
    void providerListener(request, response);
  };
  return { listener, provider, jwksUri: `${options.issuer}/jwks` };
}
