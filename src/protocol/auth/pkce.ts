// PKCE (RFC 7636), the proof that the client which redeems an authorization code is the one that
// asked for it. MCP requires it with S256 (a client must refuse a server that does not offer it):
// the client keeps a random `code_verifier`, sends BASE64URL(SHA-256(verifier)) as the
// `code_challenge` with the authorization request, and the verifier itself with the token request.
// WebCrypto (crypto.subtle) exists in browsers, workers and Node alike, so this stays pure.

import { bytesToBase64Url } from '../base64.ts';

export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isCodeVerifier(text: string): boolean {
  return VERIFIER.test(text);
}

/** A fresh verifier: 32 random bytes as base64url, 43 characters (RFC 7636 §4.1's recommendation). */
export function createCodeVerifier(randomBytes: (length: number) => Uint8Array = (length) => globalThis.crypto.getRandomValues(new Uint8Array(length))): string {
  return bytesToBase64Url(randomBytes(32));
}

/** The S256 challenge of a verifier; throws a RangeError on text that is not a verifier. */
export async function codeChallengeS256(verifier: string): Promise<string> {
  if (!isCodeVerifier(verifier)) throw new RangeError(`not a PKCE code_verifier (43–128 of A–Z a–z 0–9 - . _ ~): ${JSON.stringify(verifier.slice(0, 40))}`);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return bytesToBase64Url(new Uint8Array(digest));
}
