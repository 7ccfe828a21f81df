// The authorization scene's steps: one press of Step lets one HTTP exchange go out, and the scene
// names it from the request alone — the MCP request, the Protected Resource Metadata, the
// authorization server's metadata, registration, the authorization request, the browser's own
// redirects, the consent form, the token request, and a token passed on to another API. The flow itself is the protocol layer's
// (authorizingExchange over this gated exchange): the scene only holds each request until the
// learner steps, so the order on screen is the order on the wire. Pure over the exchange.

import { headerValue, type HttpClientRequest, type HttpClientResponse, type HttpExchange } from '../../protocol/http/types.ts';

export type AuthStepKind = 'mcp' | 'resource-metadata' | 'server-metadata' | 'registration' | 'authorization' | 'browser' | 'consent' | 'token' | 'passed-on';

/** What an exchange of the flow is, from its method, URL and body. `endpoint` is the MCP server's URL. */
export function authStepKind(request: HttpClientRequest, endpoint: string): AuthStepKind {
  const url = new URL(request.url);
  if (url.origin === new URL(endpoint).origin && url.pathname === new URL(endpoint).pathname) return 'mcp';
  // A Bearer token anywhere else is the MCP server's token passed on to another API.
  if (headerValue(request.headers, 'authorization')?.startsWith('Bearer ')) return 'passed-on';
  if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) return 'resource-metadata';
  if (url.pathname.includes('/.well-known/oauth-authorization-server') || url.pathname.includes('/.well-known/openid-configuration')) return 'server-metadata';
  const body = request.body === undefined ? '' : new TextDecoder().decode(request.body);
  const type = headerValue(request.headers, 'content-type') ?? '';
  if (request.method === 'POST' && type.startsWith('application/json') && body.includes('"redirect_uris"')) return 'registration';
  if (request.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body);
    if (form.has('grant_type')) return 'token';
    if (form.has('decision')) return 'consent';
  }
  if (request.method === 'GET' && url.searchParams.get('response_type') === 'code') return 'authorization';
  return 'browser';
}

export interface HeldRequest {
  kind: AuthStepKind;
  request: HttpClientRequest;
}

export interface StepResult extends HeldRequest {
  status: number;
}

/**
 * An exchange whose requests wait for `step()`. Requests are released one at a time, in the order
 * they were made; `step()` resolves once the released request's answer has arrived (its status; the
 * body stays the caller's to read).
 */
export class SteppedExchange {
  private readonly held: { item: HeldRequest; go(): Promise<StepResult> }[] = [];

  constructor(
    private readonly inner: HttpExchange,
    private readonly endpoint: string,
  ) {}

  /** The gated exchange, for authorizingExchange and the client transport. */
  readonly exchange: HttpExchange = (request) =>
    new Promise<HttpClientResponse>((resolve, reject) => {
      const item: HeldRequest = { kind: authStepKind(request, this.endpoint), request };
      this.held.push({
        item,
        go: () =>
          this.inner(request).then(
            (response) => {
              resolve(response);
              return { ...item, status: response.status };
            },
            (error: unknown) => {
              reject(error);
              throw error;
            },
          ),
      });
    });

  /** The next request waiting to go, if any. */
  get next(): HeldRequest | null {
    return this.held[0]?.item ?? null;
  }

  /** Let the next request go; resolves with it and its status once its answer arrived. */
  step(): Promise<StepResult> {
    const first = this.held.shift();
    if (first === undefined) return Promise.reject(new Error('no request is waiting'));
    return first.go();
  }
}
