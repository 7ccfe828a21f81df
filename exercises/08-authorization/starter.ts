// Exercise 8: authorization. You write the client's pure steps of MCP authorization; the flow
// around them (done) makes the requests, reads the answers and asks the browser for the redirect.
// Given: AuthorizationError (throw it for a redirect you refuse), the authorization server's
// checked metadata (AuthorizationServerMetadata), the client's identity (ClientIdentity), and
// base64 / base64url encoders. Each piece throws until you write it.

import { AuthorizationError } from '@protocol/auth/auth-error';
import type { ClientIdentity } from '@protocol/auth/client-identity';
import type { AuthorizationServerMetadata } from '@protocol/auth/server-metadata';
import { bytesToBase64, bytesToBase64Url } from '@protocol/base64';

// 1. Discovery: where to look for the two metadata documents, first to last

/** RFC 9728: `fromHeader` (the 401's resource_metadata) alone when given; else the path-inserted well-known URL, then the root one. */
export function protectedResourceMetadataUrls(mcpEndpoint: string, fromHeader?: string): string[] {
  throw new Error('TODO: protectedResourceMetadataUrls — the challenge\'s URL, or the well-known ones');
}

/** RFC 8414 and OpenID Connect Discovery, in MCP's order; the two root forms for an issuer without a path. */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  throw new Error('TODO: authorizationServerMetadataUrls — three URLs for an issuer with a path, two without');
}

// 2. PKCE (RFC 7636), S256

/** 43 to 128 characters of A–Z a–z 0–9 - . _ ~ */
export function isCodeVerifier(text: string): boolean {
  throw new Error('TODO: isCodeVerifier');
}

/** 32 random bytes as base64url without padding. */
export function createCodeVerifier(randomBytes: (length: number) => Uint8Array): string {
  throw new Error('TODO: createCodeVerifier');
}

/** BASE64URL(SHA-256(verifier)); a RangeError for text that is not a verifier. */
export async function codeChallengeS256(verifier: string): Promise<string> {
  throw new Error('TODO: codeChallengeS256 — crypto.subtle.digest, then base64url');
}

// 3. The authorization request, and the redirect back

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

/** The authorization endpoint with the request's parameters added (its own query kept). */
export function authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): string {
  throw new Error('TODO: authorizationUrl — response_type, client_id, redirect_uri, PKCE, state, resource, scope');
}

/** The code, once state, iss and error are checked; an AuthorizationError otherwise. */
export function codeFromRedirect(redirect: string, expected: { state: string; server: AuthorizationServerMetadata }): string {
  throw new Error('TODO: codeFromRedirect — state, then iss, then error, then code');
}

// 4. The token request

export type Grant =
  | { type: 'authorization_code'; code: string; redirectUri: string; codeVerifier: string }
  | { type: 'refresh_token'; refreshToken: string; scope?: string };

/** What goes to the token endpoint: the form's fields and the extra headers. */
export interface TokenRequestForm {
  fields: Record<string, string>;
  headers: Record<string, string>;
}

/** The grant's fields, the resource, and the client's credentials as client.authMethod says. */
export function tokenRequestForm(client: ClientIdentity, grant: Grant, resource: string): TokenRequestForm {
  throw new Error('TODO: tokenRequestForm');
}

/** RFC 6749 §2.3.1: "Basic " + base64(urlencode(id) + ":" + urlencode(secret)). */
export function basicCredentials(clientId: string, secret: string): string {
  throw new Error('TODO: basicCredentials');
}
