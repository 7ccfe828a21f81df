// The authorization scene's failure cards: the same sign-in against the same real servers, with one
// thing broken the way a bug or an attacker breaks it, so the learner sees which party refuses and
// with what bytes. The alterations sit under the client, on the wire side of it: the inspector shows
// the bytes that really crossed, and the client's own code is the reference's, unchanged.
//
//   audience  the authorization and token requests name another MCP server as `resource`: the
//             token is for that server, and this one answers 401 invalid_token
//   no-pkce   the authorization request goes without code_challenge: the authorization server,
//             which requires PKCE, sends the person back with invalid_request
//   step-up   tools/call of a destructive tool with a token that only reads: 403
//             insufficient_scope, the client asks for tools:write as well, and the call goes again
//   mix-up    the redirect back names another authorization server in `iss` (RFC 9207): the client
//             refuses the code instead of sending it to the wrong token endpoint
//   deputy    the token is passed on to another API (here the authorization server's userinfo): it
//             is not for that API, which refuses it, as every API must (no token passthrough)
// Pure.

import type { HttpClientRequest } from '../../protocol/http/types.ts';
import { headerValue } from '../../protocol/http/types.ts';

export const AUTH_CARDS = ['audience', 'no-pkce', 'step-up', 'mix-up', 'deputy'] as const;
export type AuthCard = (typeof AUTH_CARDS)[number];

/** A loopback MCP server that is not this one: the authorization server will issue a token for it. */
export const ANOTHER_RESOURCE = 'http://127.0.0.1:9/mcp';
/** An authorization server that is not this one, as a mix-up attacker's redirect names it. */
export const ANOTHER_ISSUER = 'http://127.0.0.1:9';

/** The authorization request: the first GET of the person's browser, with `response_type=code`. */
export function isAuthorizationRequest(request: HttpClientRequest): boolean {
  return request.method === 'GET' && new URL(request.url).searchParams.get('response_type') === 'code';
}

/** A token request: a form with `grant_type`. */
export function tokenForm(request: HttpClientRequest): URLSearchParams | null {
  if (request.method !== 'POST' || request.body === undefined) return null;
  if (!(headerValue(request.headers, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const form = new URLSearchParams(new TextDecoder().decode(request.body));
  return form.has('grant_type') ? form : null;
}

/** The request as the card sends it (unchanged for a card that breaks nothing here). */
export function alterRequest(card: AuthCard | null, request: HttpClientRequest): HttpClientRequest {
  if (card === 'no-pkce' && isAuthorizationRequest(request)) {
    const url = new URL(request.url);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    return { ...request, url: url.href };
  }
  if (card === 'audience') {
    if (isAuthorizationRequest(request)) {
      const url = new URL(request.url);
      url.searchParams.set('resource', ANOTHER_RESOURCE);
      return { ...request, url: url.href };
    }
    const form = tokenForm(request);
    if (form !== null && form.has('resource')) {
      form.set('resource', ANOTHER_RESOURCE);
      return { ...request, body: new TextEncoder().encode(form.toString()) };
    }
  }
  return request;
}

/** The redirect back as it reaches the client. */
export function alterRedirect(card: AuthCard | null, url: string): string {
  if (card !== 'mix-up') return url;
  const altered = new URL(url);
  altered.searchParams.set('iss', ANOTHER_ISSUER);
  return altered.href;
}

/** What the client does once signed in: every card signs in first, and then one of these. */
export type AfterSignIn = 'echo' | 'delete' | 'pass-on';

export function afterSignIn(card: AuthCard | null): AfterSignIn {
  return card === 'step-up' ? 'delete' : card === 'deputy' ? 'pass-on' : 'echo';
}
