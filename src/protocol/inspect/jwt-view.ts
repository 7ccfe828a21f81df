// A JWT access token (RFC 9068) read for a person, not checked: its header and claims decoded, and
// the four claims MCP's authorization turns on, each with what it means for this server — the
// audience (`aud` must name this server's canonical URI, or the token is for another one), the
// issuer (`iss`, the authorization server its metadata named), the expiry (`exp`, seconds since
// 1970) and the scopes (`scope`). The resource server's real check is jose's, with the signature
// (server/jwt-access-token.ts); this is what the inspector explains beside it. Pure.

import { base64UrlToBytes } from '../base64.ts';

export type JwtReading = { ok: true; header: Record<string, unknown>; claims: Record<string, unknown> } | { ok: false; problem: 'not-three-parts' | 'not-base64url' | 'not-json-objects' };

/** Header and claims of a compact JWS (three base64url parts), without checking the signature. */
export function readJwt(token: string): JwtReading {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, problem: 'not-three-parts' };
  const decoded: unknown[] = [];
  for (const part of parts.slice(0, 2)) {
    const bytes = part === '' ? null : base64UrlToBytes(part!);
    if (bytes === null) return { ok: false, problem: 'not-base64url' };
    try {
      decoded.push(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
    } catch {
      return { ok: false, problem: 'not-json-objects' };
    }
  }
  const [header, claims] = decoded;
  if (!isObject(header) || !isObject(claims)) return { ok: false, problem: 'not-json-objects' };
  return { ok: true, header, claims };
}

/** What a claim says for this server: fine, or the problem the resource server refuses it for. */
export type ClaimVerdict = 'ok' | 'missing' | 'another-audience' | 'another-issuer' | 'expired' | 'lacks-scope';

export interface ClaimFact {
  claim: 'aud' | 'iss' | 'exp' | 'scope';
  /** The claim's value as the token has it (undefined when absent). */
  value: unknown;
  verdict: ClaimVerdict;
}

export interface Expectations {
  /** This server's canonical URI. */
  resource: string;
  issuer: string;
  /** Seconds since 1970. */
  now: number;
  /** Scopes the request needs. */
  scopes?: readonly string[];
}

/** aud, iss, exp and scope, in that order, each judged against what this server expects. */
export function accessTokenFacts(claims: Record<string, unknown>, expected: Expectations): ClaimFact[] {
  const { aud, iss, exp, scope } = claims;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : undefined;
  const held = typeof scope === 'string' ? scope.split(' ').filter((item) => item !== '') : undefined;
  return [
    { claim: 'aud', value: aud, verdict: audiences === undefined ? 'missing' : audiences.includes(expected.resource) ? 'ok' : 'another-audience' },
    { claim: 'iss', value: iss, verdict: iss === undefined ? 'missing' : iss === expected.issuer ? 'ok' : 'another-issuer' },
    { claim: 'exp', value: exp, verdict: typeof exp !== 'number' ? 'missing' : exp > expected.now ? 'ok' : 'expired' },
    {
      claim: 'scope',
      value: scope,
      verdict: held === undefined ? ((expected.scopes ?? []).length === 0 ? 'ok' : 'missing') : (expected.scopes ?? []).every((item) => held.includes(item)) ? 'ok' : 'lacks-scope',
    },
  ];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
