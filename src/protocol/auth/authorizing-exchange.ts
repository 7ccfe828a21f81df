// Authorization as a layer under the MCP client: an HttpExchange that wraps the transport's own.
// Every request to the server carries `Authorization: Bearer` once there is a token (and only a
// request to that resource: the token never goes anywhere else). A 401 runs the flow (flow.ts),
// or first a refresh when the client holds a refresh token; a 403 with
// `error="insufficient_scope"` runs it again for the scopes the server asks for (step-up). Then
// the same request goes again. Both transports (the handshake era's and 2026-07-28's) work through
// it unchanged.
//
// Loops are bounded: one request may start at most `maxAuthorizations` flows; after that the 401
// or 403 goes back to the transport, which reports it.

import type { HttpClientRequest, HttpClientResponse, HttpExchange } from '../http/types.ts';
import { headerValue } from '../http/types.ts';
import { authorize, refresh, type Authorization, type AuthorizeOptions } from './flow.ts';
import { resourceCovers } from './resource.ts';
import { bearerChallenge, type BearerChallenge } from './www-authenticate.ts';

export interface AuthorizingExchangeOptions extends Omit<AuthorizeOptions, 'exchange' | 'challenge' | 'heldScope'> {
  /** The exchange underneath: the MCP requests, and the flow's own requests, go through it. */
  exchange: HttpExchange;
  /** Flows one request may start (the first and its step-ups); default 2. */
  maxAuthorizations?: number;
  /** Told each time a token is obtained (for a log). */
  onAuthorized?(authorization: Authorization, why: 'authorized' | 'stepped-up' | 'refreshed'): void;
}

export interface AuthorizingExchange extends HttpExchange {
  /** The authorization in use, or null before the first. */
  current(): Authorization | null;
}

export const DEFAULT_MAX_AUTHORIZATIONS = 2;

export function authorizingExchange(options: AuthorizingExchangeOptions): AuthorizingExchange {
  const raw = options.exchange;
  const limit = options.maxAuthorizations ?? DEFAULT_MAX_AUTHORIZATIONS;
  let current: Authorization | null = null;
  // Requests in flight that meet the same 401 share one flow.
  let pending: Promise<Authorization> | null = null;

  function withToken(request: HttpClientRequest): HttpClientRequest {
    if (current === null || !resourceCovers(current.resource, request.url)) return request;
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${current.tokens.accessToken}` } };
  }

  async function renew(status: number, challenge: BearerChallenge | null, held: Authorization | null): Promise<void> {
    if (current !== held) return; // another request already renewed it
    pending ??= (async () => {
      const stepUp = status === 403;
      if (!stepUp && held?.tokens.refreshToken !== undefined) {
        try {
          const refreshed = await refresh(raw, held);
          options.onAuthorized?.(refreshed, 'refreshed');
          return refreshed;
        } catch {
          // A refused refresh token: sign in again.
        }
      }
      const next = await authorize({ ...options, exchange: raw, challenge, ...(stepUp && held?.scope !== undefined ? { heldScope: held.scope } : {}) });
      options.onAuthorized?.(next, stepUp ? 'stepped-up' : 'authorized');
      return next;
    })().finally(() => (pending = null));
    current = await pending;
  }

  const exchange = (async (request: HttpClientRequest): Promise<HttpClientResponse> => {
    for (let flows = 0; ; flows++) {
      const held = current;
      const response = await raw(withToken(request));
      const challenge = challengeOf(response);
      const wantsToken = response.status === 401 || (response.status === 403 && challenge?.error === 'insufficient_scope');
      if (!wantsToken || flows >= limit) return response;
      response.cancel();
      await renew(response.status, challenge, held);
    }
  }) as AuthorizingExchange;
  exchange.current = () => current;
  return exchange;
}

/** The response's Bearer challenge; a header that cannot be read counts as none. */
function challengeOf(response: HttpClientResponse): BearerChallenge | null {
  const header = headerValue(response.headers, 'www-authenticate');
  if (header === undefined) return null;
  try {
    return bearerChallenge(header);
  } catch {
    return null;
  }
}
