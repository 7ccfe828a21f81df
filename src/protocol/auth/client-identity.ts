// Who the client is to the authorization server, in the order MCP (2025-11-25) gives: credentials
// registered beforehand; else a Client ID Metadata Document, a URL the server fetches, when the
// server says it supports them; else Dynamic Client Registration (RFC 7591) at its
// registration_endpoint; else the client cannot go on.
//
// And how the client proves it at the token endpoint: `none` (a public client sends only its
// client_id), `client_secret_basic` (HTTP Basic, RFC 6749 §2.3.1) or `client_secret_post` (the
// secret in the form), whichever the server supports and the registration settled.

import type { HttpExchange } from '../http/types.ts';
import { AuthorizationError } from './auth-error.ts';
import { postJson } from './json-exchange.ts';
import type { AuthorizationServerMetadata } from './server-metadata.ts';

export type TokenEndpointAuth = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface ClientIdentity {
  clientId: string;
  clientSecret?: string;
  authMethod: TokenEndpointAuth;
  how: 'pre-registered' | 'metadata-document' | 'registered';
}

export interface ClientIdentityOptions {
  /** Credentials registered with this server beforehand. */
  preRegistered?: { clientId: string; clientSecret?: string };
  /** The https URL of this client's Client ID Metadata Document, when it publishes one. */
  metadataDocumentUrl?: string;
  /** For dynamic registration. */
  clientName: string;
  redirectUri: string;
  /** Ask for the refresh_token grant too (RFC 7591 grant_types), for a client that wants to stay signed in. */
  wantsRefresh?: boolean;
}

const SECRET_METHODS: readonly TokenEndpointAuth[] = ['client_secret_basic', 'client_secret_post'];

export async function clientIdentity(exchange: HttpExchange, server: AuthorizationServerMetadata, options: ClientIdentityOptions): Promise<ClientIdentity> {
  const supported = server.tokenEndpointAuthMethods;
  if (options.preRegistered) {
    const { clientId, clientSecret } = options.preRegistered;
    if (clientSecret === undefined) return { clientId, authMethod: 'none', how: 'pre-registered' };
    // RFC 8414: no list means client_secret_basic.
    const authMethod = SECRET_METHODS.find((method) => supported === undefined || supported.includes(method)) ?? 'client_secret_basic';
    return { clientId, clientSecret, authMethod, how: 'pre-registered' };
  }
  if (options.metadataDocumentUrl !== undefined && server.clientIdMetadataDocumentSupported) {
    return { clientId: options.metadataDocumentUrl, authMethod: 'none', how: 'metadata-document' };
  }
  if (server.registrationEndpoint === undefined) {
    throw new AuthorizationError('registration', `${server.issuer} has no registration_endpoint and this client has no credentials for it`);
  }
  return register(exchange, server.registrationEndpoint, preferredMethod(supported), options);
}

/** `none` when the server takes it (a native client keeps no secret), else the first secret method it takes. */
function preferredMethod(supported: readonly string[] | undefined): TokenEndpointAuth {
  if (supported === undefined || supported.includes('none')) return 'none';
  return SECRET_METHODS.find((method) => supported.includes(method)) ?? 'none';
}

async function register(exchange: HttpExchange, endpoint: string, method: TokenEndpointAuth, options: ClientIdentityOptions): Promise<ClientIdentity> {
  const answer = await postJson(exchange, endpoint, {
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: options.wantsRefresh === false ? ['authorization_code'] : ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    // A program on the learner's machine with a loopback redirect (SEP-837).
    application_type: 'native',
  });
  const body = answer.json as Record<string, unknown> | null;
  if ((answer.status !== 200 && answer.status !== 201) || body === null || typeof body.client_id !== 'string') {
    throw new AuthorizationError('registration', `${endpoint} answered ${answer.status}${describeError(body)}`);
  }
  const secret = typeof body.client_secret === 'string' ? body.client_secret : undefined;
  // What the server registered; when it does not say, what was asked for (and what its metadata offers).
  const granted = body.token_endpoint_auth_method;
  const authMethod: TokenEndpointAuth = granted === 'none' || granted === 'client_secret_basic' || granted === 'client_secret_post' ? granted : method;
  if (authMethod !== 'none' && secret === undefined) throw new AuthorizationError('registration', `${endpoint} settled ${authMethod} but gave no client_secret`);
  return { clientId: body.client_id, ...(secret === undefined ? {} : { clientSecret: secret }), authMethod, how: 'registered' };
}

/** ": error (description)" from an OAuth error body, or nothing. */
export function describeError(body: unknown): string {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (typeof fields.error !== 'string') return '';
  return `: ${fields.error}${typeof fields.error_description === 'string' ? ` (${fields.error_description})` : ''}`;
}
