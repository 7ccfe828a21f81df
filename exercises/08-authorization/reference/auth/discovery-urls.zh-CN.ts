// MCP 客户端去哪里找授权的两份元数据文档，按规范（2025-11-25，2026-07-28 沿用）给的顺序：
// 1. 受保护资源元数据（RFC 9728）：服务器在 401 的 `resource_metadata` 里指明时用那个 URL；
// 否则用插入了 MCP 端点路径的 well-known URL（RFC 9728 §3.1），再用根路径的那个。
// 2. 授权服务器元数据，对资源列出的每个签发者：OAuth 2.0 授权服务器元数据（RFC 8414）和
// OpenID Connect Discovery；带路径的签发者先插入路径，再把 OpenID 的路径追加在后面；不带路径的只有两个根形式。
// 纯函数：只给出 URL。去取它们、在第一个有回答的地方停下，是调用方的事。

import { parseHttpUrl } from './http-url.ts';

export class DiscoveryUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryUrlError';
  }
}

/** 一个绝对 http(s) URL，否则抛出 DiscoveryUrlError，说明是哪个、为什么。 */
function httpUrl(value: string | URL, what: string): URL {
  return parseHttpUrl(value, what, (message) => new DiscoveryUrlError(message));
}

/** 去掉末尾斜杠的 URL 路径（根路径为 ''），即 RFC 8414 和 9728 插入的那一段。 */
function pathOf(url: URL): string {
  return url.pathname.replace(/\/+$/, '');
}

/**
 * 要尝试的受保护资源元数据 URL，从先到后。`fromHeader` 是 401 的
 * `resource_metadata`（bearerChallenge().resourceMetadata）：有它时就只有它一个。
 */
export function protectedResourceMetadataUrls(mcpEndpoint: string | URL, fromHeader?: string): string[] {
  const endpoint = httpUrl(mcpEndpoint, 'the MCP endpoint');
  if (fromHeader !== undefined) return [httpUrl(fromHeader, 'resource_metadata').href];
  const path = pathOf(endpoint);
  const root = `${endpoint.origin}/.well-known/oauth-protected-resource`;
  return path === '' ? [root] : [`${root}${path}`, root];
}

/** 对一个签发者要尝试的授权服务器元数据 URL，从先到后。 */
export function authorizationServerMetadataUrls(issuer: string | URL): string[] {
  const url = httpUrl(issuer, 'the issuer');
  const path = pathOf(url);
  const { origin } = url;
  if (path === '') return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}
