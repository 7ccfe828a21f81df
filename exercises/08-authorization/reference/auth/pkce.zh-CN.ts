// PKCE（RFC 7636）：证明用授权码换令牌的客户端，就是当初申请它的那一个。MCP 要求用 S256 方式
// （服务器不支持时客户端必须拒绝继续）：客户端保留一个随机的 `code_verifier`，在授权请求里发送
// BASE64URL(SHA-256(校验码)) 作为 `code_challenge`，在令牌请求里才发送校验码本身。
// WebCrypto（crypto.subtle）在浏览器、worker 和 Node 里都有，所以这里仍是纯的。

import { bytesToBase64Url } from '../base64.ts';

export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.1：43 到 128 个非保留字符。 */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isCodeVerifier(text: string): boolean {
  return VERIFIER.test(text);
}

/** 新的校验码：32 个随机字节的 base64url，43 个字符（RFC 7636 §4.1 的建议）。 */
export function createCodeVerifier(randomBytes: (length: number) => Uint8Array = (length) => globalThis.crypto.getRandomValues(new Uint8Array(length))): string {
  return bytesToBase64Url(randomBytes(32));
}

/** 校验码的 S256 质询；不是校验码的文本抛 RangeError。 */
export async function codeChallengeS256(verifier: string): Promise<string> {
  if (!isCodeVerifier(verifier)) throw new RangeError(`not a PKCE code_verifier (43–128 of A–Z a–z 0–9 - . _ ~): ${JSON.stringify(verifier.slice(0, 40))}`);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return bytesToBase64Url(new Uint8Array(digest));
}
