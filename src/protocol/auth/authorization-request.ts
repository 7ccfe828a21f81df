// The front channel of the authorization code flow: the URL the client sends the person to
// (OAuth 2.1 §4.1.1 with PKCE S256, RFC 8707's `resource`, a fresh `state`), and the checks on the
// redirect that comes back (§4.1.2): the same `state`, no `error`, and — RFC 9207 — an `iss` that
// is exactly the issuer, required when the server says it sends one. A wrong or missing `iss`
// means the code may come from another server (a mix-up): it is refused, never redeemed.
// Asking for `offline_access` (a refresh token) goes with `prompt=consent`: OpenID Connect (Core
// §11) lets a server ignore offline_access otherwise, and servers built on it do.

import { AuthorizationError } from './auth-error.ts';
import { PKCE_METHOD } from './pkce.ts';
import type { AuthorizationServerMetadata } from './server-metadata.ts';

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  /** The protected resource, exactly as its metadata wrote it. */
  resource: string;
  /** Space-separated; left out when undefined. */
  scope?: string;
}

export function authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): string {
  const url = new URL(server.authorizationEndpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', request.clientId);
  query.set('redirect_uri', request.redirectUri);
  query.set('code_challenge', request.codeChallenge);
  query.set('code_challenge_method', PKCE_METHOD);
  query.set('state', request.state);
  query.set('resource', request.resource);
  if (request.scope !== undefined) query.set('scope', request.scope);
  if (request.scope?.split(' ').includes('offline_access')) query.set('prompt', 'consent');
  return url.href;
}

/** The authorization code from the redirect back to the client, once every check holds. */
export function codeFromRedirect(redirect: string, expected: { state: string; server: AuthorizationServerMetadata }): string {
  let query: URLSearchParams;
  try {
    query = new URL(redirect).searchParams;
  } catch {
    throw new AuthorizationError('authorization', `the redirect is not a URL: ${JSON.stringify(redirect.slice(0, 200))}`);
  }
  if (query.get('state') !== expected.state) throw new AuthorizationError('authorization', 'the redirect does not carry the state this client sent: refused');
  const iss = query.get('iss');
  const { issuer, issParameterSupported } = expected.server;
  if (iss !== null && iss !== issuer) throw new AuthorizationError('authorization', `the redirect says it comes from ${iss}, not ${issuer}: refused (a mix-up, RFC 9207)`);
  if (iss === null && issParameterSupported) throw new AuthorizationError('authorization', `${issuer} sends iss with every response, and this redirect has none: refused (RFC 9207)`);
  const error = query.get('error');
  if (error !== null) {
    const description = query.get('error_description');
    throw new AuthorizationError('authorization', `the authorization server said ${error}${description === null ? '' : ` (${description})`}`);
  }
  const code = query.get('code');
  if (code === null || code === '') throw new AuthorizationError('authorization', 'the redirect carries no code');
  return code;
}
