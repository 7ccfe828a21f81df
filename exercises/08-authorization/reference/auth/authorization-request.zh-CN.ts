// 授权码流程的前端通道：客户端把用户送去的 URL（OAuth 2.1 §4.1.1，带 PKCE S256、RFC 8707 的
// `resource` 和新的 `state`），以及对回来的重定向的检查（§4.1.2）：同一个 `state`，没有 `error`，
// 以及 RFC 9207 的 `iss` 必须与签发者完全相同，服务器声明会发时必须有。错误或缺失的 `iss`
// 意味着授权码可能来自另一个服务器（混淆攻击）：拒绝，绝不拿去换令牌。
// 请求 `offline_access`（刷新令牌）时同时带 `prompt=consent`：否则 OpenID Connect（Core §11）
// 允许服务器忽略 offline_access，基于它构建的服务器也确实会忽略。

import { AuthorizationError } from './auth-error.ts';
import { PKCE_METHOD } from './pkce.ts';
import type { AuthorizationServerMetadata } from './server-metadata.ts';

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

export function authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): string {
  const url = new URL(server.authorizationEndpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', request.clientId);
  query.set('redirect_uri', request.redirectUri);
  query.set('code_challenge', request.codeChallenge);
  query.set('code_challenge_method', PKCE_METHOD);
  query.set('state', request.state);
  query.set('resource', request.resource);
  if (request.scope !== undefined) query.set('scope', request.scope);
  if (request.scope?.split(' ').includes('offline_access')) query.set('prompt', 'consent');
  return url.href;
}

/** 每项检查都通过后，从回到客户端的重定向里取出授权码。 */
export function codeFromRedirect(redirect: string, expected: { state: string; server: AuthorizationServerMetadata }): string {
  let query: URLSearchParams;
  try {
    query = new URL(redirect).searchParams;
  } catch {
    throw new AuthorizationError('authorization', `the redirect is not a URL: ${JSON.stringify(redirect.slice(0, 200))}`);
  }
  if (query.get('state') !== expected.state) throw new AuthorizationError('authorization', 'the redirect does not carry the state this client sent: refused');
  const iss = query.get('iss');
  const { issuer, issParameterSupported } = expected.server;
  if (iss !== null && iss !== issuer) throw new AuthorizationError('authorization', `the redirect says it comes from ${iss}, not ${issuer}: refused (a mix-up, RFC 9207)`);
  if (iss === null && issParameterSupported) throw new AuthorizationError('authorization', `${issuer} sends iss with every response, and this redirect has none: refused (RFC 9207)`);
  const error = query.get('error');
  if (error !== null) {
    const description = query.get('error_description');
    throw new AuthorizationError('authorization', `the authorization server said ${error}${description === null ? '' : ` (${description})`}`);
  }
  const code = query.get('code');
  if (code === null || code === '') throw new AuthorizationError('authorization', 'the redirect carries no code');
  return code;
}
