// Where an MCP client looks for the two metadata documents of authorization, in the order the
// specification (2025-11-25, kept by 2026-07-28) gives:
//   1. Protected Resource Metadata (RFC 9728): the URL in the 401's `resource_metadata` when the
//      server names one; otherwise the well-known URL with the MCP endpoint's path inserted
//      (RFC 9728 §3.1), then the one at the root.
//   2. The authorization server's metadata, for each issuer the resource lists: OAuth 2.0
//      Authorization Server Metadata (RFC 8414) and OpenID Connect Discovery, path inserted for an
//      issuer with a path, then OpenID's path appended; the two root forms for one without.
// Pure: the URLs only. Fetching them, and stopping at the first that answers, is the caller's.

import { parseHttpUrl } from './http-url.ts';

export class DiscoveryUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryUrlError';
  }
}

/** An absolute http(s) URL, or a DiscoveryUrlError that says which one and why. */
function httpUrl(value: string | URL, what: string): URL {
  return parseHttpUrl(value, what, (message) => new DiscoveryUrlError(message));
}

/** The URL's path without its terminating slash ('' for the root), as RFC 8414 and 9728 insert it. */
function pathOf(url: URL): string {
  return url.pathname.replace(/\/+$/, '');
}

/**
 * The Protected Resource Metadata URLs to try, first to last. `fromHeader` is the 401's
 * `resource_metadata` (bearerChallenge().resourceMetadata): when present it is the only one.
 */
export function protectedResourceMetadataUrls(mcpEndpoint: string | URL, fromHeader?: string): string[] {
  const endpoint = httpUrl(mcpEndpoint, 'the MCP endpoint');
  if (fromHeader !== undefined) return [httpUrl(fromHeader, 'resource_metadata').href];
  const path = pathOf(endpoint);
  const root = `${endpoint.origin}/.well-known/oauth-protected-resource`;
  return path === '' ? [root] : [`${root}${path}`, root];
}

/** The authorization server metadata URLs to try for one issuer, first to last. */
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
