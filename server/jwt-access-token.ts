// How mcp-http --auth checks an access token: a JWT (RFC 9068) signed by the authorization
// server, verified with `jose` against the keys the server publishes (its jwks_uri, fetched and
// cached by jose, refetched when a token names an unknown key). The checks MCP requires of a
// resource server: the signature, the issuer, the audience is this server's own canonical URI
// (a token for another server is refused), and expiry.

import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { TokenCheck } from '../src/protocol/auth/protected-resource.ts';

export interface JwtAccessTokenOptions {
  issuer: string;
  jwksUri: string;
  /** This server's canonical URI: the `aud` a token must carry. */
  audience: string;
}

/** Asymmetric algorithms only: a resource server never shares a secret with the authorization server. */
const ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];

export function jwtAccessTokenVerifier(options: JwtAccessTokenOptions): (token: string) => Promise<TokenCheck> {
  const keys = createRemoteJWKSet(new URL(options.jwksUri));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        typ: 'at+jwt',
        algorithms: ALGORITHMS,
        requiredClaims: ['exp'],
      });
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter((scope) => scope !== '') : [];
      return {
        ok: true,
        token: {
          scopes,
          ...(typeof payload.sub === 'string' ? { subject: payload.sub } : {}),
          ...(typeof payload.client_id === 'string' ? { clientId: payload.client_id } : {}),
        },
      };
    } catch (error) {
      return { ok: false, description: describe(error) };
    }
  };
}

function describe(error: unknown): string {
  // JWTExpired is a JWTClaimValidationFailed too: it is asked first.
  if (error instanceof errors.JWTExpired) return 'the token has expired (exp)';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the token is for another resource (aud)';
    if (error.claim === 'iss') return 'the token was issued by another authorization server (iss)';
    return `the token's ${error.claim} claim is not valid`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the authorization server signed this token';
  if (error instanceof errors.JOSEError) return `the token is not a valid JWT (${error.code})`;
  return 'the token could not be checked';
}
