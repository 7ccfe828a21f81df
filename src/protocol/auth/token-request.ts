// The back channel: redeem the authorization code (with the PKCE verifier and the same `resource`)
// or a refresh token at the token endpoint, authenticating the client the way it was settled
// (client-identity.ts), and read the token response (OAuth 2.1 §3.2.3).

import type { HttpExchange } from '../http/types.ts';
import { bytesToBase64 } from '../base64.ts';
import { AuthorizationError } from './auth-error.ts';
import { describeError, type ClientIdentity } from './client-identity.ts';
import { postForm } from './json-exchange.ts';

export interface Tokens {
  accessToken: string;
  tokenType: string;
  /** Seconds, as the server said. */
  expiresIn?: number;
  refreshToken?: string;
  /** The scope granted, when the server says (else the one asked for). */
  scope?: string;
}

export type Grant =
  | { type: 'authorization_code'; code: string; redirectUri: string; codeVerifier: string }
  | { type: 'refresh_token'; refreshToken: string; scope?: string };

/** What goes to the token endpoint: the form's fields and the extra headers. */
export interface TokenRequestForm {
  fields: Record<string, string>;
  headers: Record<string, string>;
}

/**
 * The token request, without sending it: the grant's fields, the same `resource` as the
 * authorization request (RFC 8707), and the client's credentials the way it authenticates — its
 * client_id in the form (`none`, `client_secret_post` with the secret too) or HTTP Basic
 * (`client_secret_basic`, and then no client_id in the form).
 */
export function tokenRequestForm(client: ClientIdentity, grant: Grant, resource: string): TokenRequestForm {
  const fields: Record<string, string> =
    grant.type === 'authorization_code'
      ? { grant_type: 'authorization_code', code: grant.code, redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier }
      : { grant_type: 'refresh_token', refresh_token: grant.refreshToken, ...(grant.scope === undefined ? {} : { scope: grant.scope }) };
  fields.resource = resource;
  const headers: Record<string, string> = {};
  if (client.authMethod === 'client_secret_basic') headers.authorization = basicCredentials(client.clientId, client.clientSecret ?? '');
  else fields.client_id = client.clientId;
  if (client.authMethod === 'client_secret_post') fields.client_secret = client.clientSecret ?? '';
  return { fields, headers };
}

/** Sends the token request; `form` builds it (the learner's tokenRequestForm, in exercise 8's scene). */
export async function requestTokens(
  exchange: HttpExchange,
  tokenEndpoint: string,
  client: ClientIdentity,
  grant: Grant,
  resource: string,
  form: (client: ClientIdentity, grant: Grant, resource: string) => TokenRequestForm | Promise<TokenRequestForm> = tokenRequestForm,
): Promise<Tokens> {
  const { fields, headers } = await form(client, grant, resource);
  const answer = await postForm(exchange, tokenEndpoint, fields, headers);
  if (answer.status !== 200) throw new AuthorizationError('token', `${tokenEndpoint} answered ${answer.status}${describeError(answer.json)}`);
  return readTokens(answer.json, tokenEndpoint);
}

/** RFC 6749 §2.3.1: each part form-urlencoded, then joined with ":" and base64. */
export function basicCredentials(clientId: string, secret: string): string {
  const encode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);
  return `Basic ${bytesToBase64(new TextEncoder().encode(`${encode(clientId)}:${encode(secret)}`))}`;
}

function readTokens(body: unknown, endpoint: string): Tokens {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const { access_token: accessToken, token_type: tokenType, expires_in: expiresIn, refresh_token: refreshToken, scope } = fields;
  if (typeof accessToken !== 'string' || accessToken === '') throw new AuthorizationError('token', `${endpoint} gave no access_token`);
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') throw new AuthorizationError('token', `${endpoint} gave a ${JSON.stringify(tokenType)} token, not a Bearer one`);
  const tokens: Tokens = { accessToken, tokenType: 'Bearer' };
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn)) tokens.expiresIn = expiresIn;
  if (typeof refreshToken === 'string' && refreshToken !== '') tokens.refreshToken = refreshToken;
  if (typeof scope === 'string') tokens.scope = scope;
  return tokens;
}
