// 后端通道：在令牌端点用授权码（带 PKCE 校验码和同一个 `resource`）或刷新令牌换取令牌，按已经
// 确定的方式认证客户端（client-identity.ts），并读取令牌响应（OAuth 2.1 §3.2.3）。

import type { HttpExchange } from '../http/types.ts';
import { bytesToBase64 } from '../base64.ts';
import { AuthorizationError } from './auth-error.ts';
import { describeError, type ClientIdentity } from './client-identity.ts';
import { postForm } from './json-exchange.ts';

export interface Tokens {
  accessToken: string;
  tokenType: string;
  /** 秒数，服务器怎么说就怎么记。 */
  expiresIn?: number;
  refreshToken?: string;
  /** 授予的权限范围，服务器说了就用它的（否则就是请求的那个）。 */
  scope?: string;
}

export type Grant =
  | { type: 'authorization_code'; code: string; redirectUri: string; codeVerifier: string }
  | { type: 'refresh_token'; refreshToken: string; scope?: string };

/** 发给令牌端点的内容：表单字段和额外的请求头。 */
export interface TokenRequestForm {
  fields: Record<string, string>;
  headers: Record<string, string>;
}

/**
 * 令牌请求，但不发送：grant 的字段、与授权请求相同的 `resource`（RFC 8707），以及按客户端的
 * 认证方式放的凭据：表单里的 client_id（`none`；`client_secret_post` 还要加密钥），或 HTTP Basic
 * （`client_secret_basic`，此时表单里不放 client_id）。
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

/** 发送令牌请求；由 `form` 构造它（在练习 8 的场景中是学习者写的 tokenRequestForm）。 */
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

/** RFC 6749 §2.3.1：每部分先做表单 URL 编码，再用 ":" 连接并做 base64。 */
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
