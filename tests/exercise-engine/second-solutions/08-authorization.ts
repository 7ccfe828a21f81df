// A second correct solution of exercise 8, in another style than the reference: string building
// instead of URL objects where it can, a hand-written base64url instead of the given encoder, a
// character test instead of a regular expression, and the redirect's checks as a table of rules.

import { AuthorizationError } from '@protocol/auth/auth-error';
import type { ClientIdentity } from '@protocol/auth/client-identity';
import type { AuthorizationServerMetadata } from '@protocol/auth/server-metadata';

function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not http(s): ${text}`);
  return url;
}

function trimmedPath(url: URL): string {
  let path = url.pathname;
  while (path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

export function protectedResourceMetadataUrls(mcpEndpoint: string, fromHeader?: string): string[] {
  const endpoint = checkedUrl(mcpEndpoint);
  if (fromHeader !== undefined) return [checkedUrl(fromHeader).toString()];
  const root = endpoint.origin + '/.well-known/oauth-protected-resource';
  const path = trimmedPath(endpoint);
  return path ? [root + path, root] : [root];
}

export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = checkedUrl(issuer);
  const path = trimmedPath(url);
  const wellKnown = (name: string) => `${url.origin}/.well-known/${name}${path}`;
  return path ? [wellKnown('oauth-authorization-server'), wellKnown('openid-configuration'), `${url.origin}${path}/.well-known/openid-configuration`] : [wellKnown('oauth-authorization-server'), wellKnown('openid-configuration')];
}

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 3) {
    const chunk = (bytes[at]! << 16) | ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - at) * 8) / 6));
    for (let index = 0; index < chars; index++) out += BASE64URL[(chunk >> (18 - 6 * index)) & 63];
  }
  return out;
}

export function isCodeVerifier(text: string): boolean {
  return text.length >= 43 && text.length <= 128 && [...text].every((char) => UNRESERVED.includes(char));
}

export function createCodeVerifier(randomBytes: (length: number) => Uint8Array): string {
  return base64url(randomBytes(32));
}

export async function codeChallengeS256(verifier: string): Promise<string> {
  if (!isCodeVerifier(verifier)) throw new RangeError('not a code verifier');
  const bytes = Uint8Array.from(verifier, (char) => char.charCodeAt(0));
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  resource: string;
  scope?: string;
}

export function authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): string {
  const url = new URL(server.authorizationEndpoint);
  const params: [string, string | undefined][] = [
    ['response_type', 'code'],
    ['client_id', request.clientId],
    ['redirect_uri', request.redirectUri],
    ['code_challenge', request.codeChallenge],
    ['code_challenge_method', 'S256'],
    ['state', request.state],
    ['resource', request.resource],
    ['scope', request.scope],
    ['prompt', request.scope !== undefined && request.scope.split(' ').indexOf('offline_access') >= 0 ? 'consent' : undefined],
  ];
  for (const [name, value] of params) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

export function codeFromRedirect(redirect: string, expected: { state: string; server: AuthorizationServerMetadata }): string {
  let query: URLSearchParams;
  try {
    query = new URL(redirect).searchParams;
  } catch {
    throw new AuthorizationError('authorization', 'the redirect is not a URL');
  }
  const iss = query.get('iss');
  const rules: [boolean, string][] = [
    [query.get('state') !== expected.state, 'wrong state'],
    [iss !== null && iss !== expected.server.issuer, 'wrong iss: a mix-up'],
    [iss === null && expected.server.issParameterSupported, 'no iss from a server that sends one'],
    [query.get('error') !== null, `the server said ${query.get('error')}`],
    [!query.get('code'), 'no code'],
  ];
  for (const [broken, why] of rules) if (broken) throw new AuthorizationError('authorization', why);
  return query.get('code') as string;
}

export type Grant =
  | { type: 'authorization_code'; code: string; redirectUri: string; codeVerifier: string }
  | { type: 'refresh_token'; refreshToken: string; scope?: string };

export interface TokenRequestForm {
  fields: Record<string, string>;
  headers: Record<string, string>;
}

export function tokenRequestForm(client: ClientIdentity, grant: Grant, resource: string): TokenRequestForm {
  const fields: Record<string, string> = {};
  if (grant.type === 'authorization_code') Object.assign(fields, { grant_type: grant.type, code: grant.code, redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier });
  else {
    Object.assign(fields, { grant_type: grant.type, refresh_token: grant.refreshToken });
    if (grant.scope !== undefined) fields.scope = grant.scope;
  }
  fields.resource = resource;
  switch (client.authMethod) {
    case 'client_secret_basic':
      return { fields, headers: { authorization: basicCredentials(client.clientId, client.clientSecret ?? '') } };
    case 'client_secret_post':
      return { fields: { ...fields, client_id: client.clientId, client_secret: client.clientSecret ?? '' }, headers: {} };
    default:
      return { fields: { ...fields, client_id: client.clientId }, headers: {} };
  }
}

export function basicCredentials(clientId: string, secret: string): string {
  const form = (text: string) => encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  const joined = new TextEncoder().encode(`${form(clientId)}:${form(secret)}`);
  return `Basic ${btoa(String.fromCharCode(...joined))}`;
}
