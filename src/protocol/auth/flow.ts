// The authorization code flow of MCP (2025-11-25, kept by 2026-07-28), from a 401 to a token:
//
//   challenge ─► Protected Resource Metadata ─► its resource is this server? ─► authorization
//   server metadata (exact issuer, S256) ─► who this client is (pre-registered, metadata
//   document, or registered now) ─► the person is sent to the authorization endpoint with PKCE,
//   state and resource ─► the redirect back: state, iss, code ─► the token endpoint.
//
// Pure over what it is given: the HttpExchange for every request, and `redirect`, which sends the
// person to a URL and resolves with the URL the authorization server sent them back to (a browser
// and a loopback listener, a popup, or a test that follows the 302 itself).

import type { HttpExchange } from '../http/types.ts';
import { AuthorizationError } from './auth-error.ts';
import { clientIdentity, type ClientIdentity, type ClientIdentityOptions } from './client-identity.ts';
import { discoverAuthorizationServer, discoverProtectedResource, type FoundServerMetadata, type ProtectedResourceMetadata } from './discovery.ts';
import { REFERENCE_STEPS, type ClientSteps } from './client-steps.ts';
import { requestTokens, type Tokens } from './token-request.ts';
import type { BearerChallenge } from './www-authenticate.ts';
import { bytesToBase64Url } from '../base64.ts';
import { createCodeVerifier } from './pkce.ts';

export interface AuthorizeOptions {
  exchange: HttpExchange;
  /** The MCP endpoint that answered 401 (or 403). */
  endpoint: string;
  /** Its Bearer challenge, when it sent one. */
  challenge: BearerChallenge | null;
  redirectUri: string;
  /** Send the person to `url`; resolve with the URL they were redirected back to. */
  redirect(url: string): Promise<string>;
  identity: Omit<ClientIdentityOptions, 'redirectUri'>;
  /** The scope of the token held now, for a step-up: the new request asks for both. */
  heldScope?: string;
  randomBytes?: (length: number) => Uint8Array;
  /** The client's pure steps (client-steps.ts): the reference's, unless the learner's drive. */
  steps?: ClientSteps;
}

export interface Authorization {
  tokens: Tokens;
  /** The resource the token is for, exactly as its metadata wrote it. */
  resource: string;
  /** The scope asked for (undefined: none was asked). */
  scope?: string;
  resourceMetadata: ProtectedResourceMetadata;
  server: FoundServerMetadata;
  client: ClientIdentity;
}

const REFRESH_SCOPE = 'offline_access';

export async function authorize(options: AuthorizeOptions): Promise<Authorization> {
  const { exchange, endpoint, challenge } = options;
  const steps = options.steps ?? REFERENCE_STEPS;
  const resourceMetadata = await discoverProtectedResource(exchange, endpoint, challenge?.resourceMetadata, steps);
  const issuer = resourceMetadata.authorizationServers[0]!;
  const server = await discoverAuthorizationServer(exchange, issuer, steps);
  const client = await clientIdentity(exchange, server, { ...options.identity, redirectUri: options.redirectUri });
  const scope = chooseScope(challenge, resourceMetadata, server, options);
  const random = options.randomBytes ?? ((length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length)));
  // The reference's verifier comes from this flow's randomness (a test fixes it); given steps make their own.
  const codeVerifier = options.steps === undefined ? createCodeVerifier(random) : await options.steps.createCodeVerifier();
  const state = bytesToBase64Url(random(16));
  const url = await steps.authorizationUrl(server, {
    clientId: client.clientId,
    redirectUri: options.redirectUri,
    codeChallenge: await steps.codeChallengeS256(codeVerifier),
    state,
    resource: resourceMetadata.resource,
    ...(scope === undefined ? {} : { scope }),
  });
  const code = await steps.codeFromRedirect(await options.redirect(url), { state, server });
  const tokens = await requestTokens(exchange, server.tokenEndpoint, client, { type: 'authorization_code', code, redirectUri: options.redirectUri, codeVerifier }, resourceMetadata.resource, steps.tokenRequestForm);
  return { tokens, resource: resourceMetadata.resource, ...(scope === undefined ? {} : { scope }), resourceMetadata, server, client };
}

/**
 * MCP's scope selection: the challenge's `scope` when it has one, else every scope the resource
 * lists, else none (the parameter is left out). A step-up keeps the scopes already held. When the
 * client wants to stay signed in and the server offers `offline_access`, it is asked for too.
 */
function chooseScope(challenge: BearerChallenge | null, resource: ProtectedResourceMetadata, server: FoundServerMetadata, options: AuthorizeOptions): string | undefined {
  const wanted = challenge?.scopes ?? resource.scopesSupported;
  if (wanted === undefined || wanted.length === 0) return options.heldScope;
  const scopes = new Set([...(options.heldScope?.split(' ').filter((part) => part !== '') ?? []), ...wanted]);
  if (options.identity.wantsRefresh !== false && server.scopesSupported?.includes(REFRESH_SCOPE)) scopes.add(REFRESH_SCOPE);
  return [...scopes].join(' ');
}

/** A fresh access token from a refresh token, for the same resource. */
export async function refresh(exchange: HttpExchange, authorization: Authorization): Promise<Authorization> {
  const refreshToken = authorization.tokens.refreshToken;
  if (refreshToken === undefined) throw new AuthorizationError('token', 'there is no refresh token to use');
  const tokens = await requestTokens(exchange, authorization.server.tokenEndpoint, authorization.client, { type: 'refresh_token', refreshToken }, authorization.resource);
  return { ...authorization, tokens: { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken } };
}
