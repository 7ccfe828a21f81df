// 练习 8：授权。你要写的是 MCP 授权里客户端的几步纯函数；外面的流程（已写好）负责发请求、读回答、
// 向浏览器要回重定向。已给出：AuthorizationError（拒绝一个重定向时抛它）、检查过的授权服务器元数据
// （AuthorizationServerMetadata）、客户端身份（ClientIdentity），以及 base64 / base64url 编码函数。
// 每一块在你写好之前都会抛错。

import { AuthorizationError } from '@protocol/auth/auth-error';
import type { ClientIdentity } from '@protocol/auth/client-identity';
import type { AuthorizationServerMetadata } from '@protocol/auth/server-metadata';
import { bytesToBase64, bytesToBase64Url } from '@protocol/base64';

// 1. 发现：两份元数据文档去哪里找，按先后顺序

/** RFC 9728：给了 `fromHeader`（401 的 resource_metadata）就只用它；否则先用插入路径的 well-known URL，再用根路径的。 */
export function protectedResourceMetadataUrls(mcpEndpoint: string, fromHeader?: string): string[] {
  throw new Error('TODO: protectedResourceMetadataUrls — the challenge\'s URL, or the well-known ones');
}

/** RFC 8414 和 OpenID Connect Discovery，按 MCP 的顺序；不带路径的签发者只有两个根形式。 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  throw new Error('TODO: authorizationServerMetadataUrls — three URLs for an issuer with a path, two without');
}

// 2. PKCE（RFC 7636），S256 方式

/** 43 到 128 个字符，每个都属于 A–Z a–z 0–9 - . _ ~ */
export function isCodeVerifier(text: string): boolean {
  throw new Error('TODO: isCodeVerifier');
}

/** 32 个随机字节，编码成不带填充的 base64url。 */
export function createCodeVerifier(randomBytes: (length: number) => Uint8Array): string {
  throw new Error('TODO: createCodeVerifier');
}

/** BASE64URL(SHA-256(校验码))；不是校验码的文本抛 RangeError。 */
export async function codeChallengeS256(verifier: string): Promise<string> {
  throw new Error('TODO: codeChallengeS256 — crypto.subtle.digest, then base64url');
}

// 3. 授权请求，以及重定向回来

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  /** 受保护的资源，与其元数据写的一字不差。 */
  resource: string;
  /** 空格分隔；undefined 时不加。 */
  scope?: string;
}

/** 在授权端点上加上请求的参数（端点自己的查询参数保留）。 */
export function authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): string {
  throw new Error('TODO: authorizationUrl — response_type, client_id, redirect_uri, PKCE, state, resource, scope');
}

/** 检查完 state、iss 和 error 之后返回授权码；否则抛 AuthorizationError。 */
export function codeFromRedirect(redirect: string, expected: { state: string; server: AuthorizationServerMetadata }): string {
  throw new Error('TODO: codeFromRedirect — state, then iss, then error, then code');
}

// 4. 令牌请求

export type Grant =
  | { type: 'authorization_code'; code: string; redirectUri: string; codeVerifier: string }
  | { type: 'refresh_token'; refreshToken: string; scope?: string };

/** 发给令牌端点的内容：表单字段和额外的请求头。 */
export interface TokenRequestForm {
  fields: Record<string, string>;
  headers: Record<string, string>;
}

/** grant 的字段、resource，以及按 client.authMethod 放的客户端凭据。 */
export function tokenRequestForm(client: ClientIdentity, grant: Grant, resource: string): TokenRequestForm {
  throw new Error('TODO: tokenRequestForm');
}

/** RFC 6749 §2.3.1："Basic " + base64(urlencode(id) + ":" + urlencode(secret))。 */
export function basicCredentials(clientId: string, secret: string): string {
  throw new Error('TODO: basicCredentials');
}
